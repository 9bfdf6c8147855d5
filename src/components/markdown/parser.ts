import { Marked } from 'marked';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/**
 * Markdown as bot replies use it: raw HTML a bot writes is shown as text, not interpreted, so
 * `<b>` reads as `<b>`; DOMPurify then guards what markdown itself produces.
 */
export const markdown = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});
