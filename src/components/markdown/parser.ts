import { Marked } from 'marked';
import { escapeHtml } from './escapeHtml';
import { mathExtension } from './mathExtension';

/**
 * Markdown as bot replies use it: raw HTML a bot writes is shown as text, not interpreted, so
 * `<b>` reads as `<b>`; DOMPurify then guards what markdown itself produces.
 */
export const markdown = new Marked(
  {
    gfm: true,
    renderer: {
      html: ({ text }) => escapeHtml(text),
    },
  },
  mathExtension,
);
