import DOMPurify from 'dompurify';

const allowedLink = /^(https?:|mailto:)/i;

// Bot output is untrusted: links only to the web or mail, opened apart from the app, never an image
// (no tracking pixels), no styles, no forms, no embedded documents.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (!allowedLink.test(href.trim())) {
    node.removeAttribute('href');
    return;
  }
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer nofollow');
});

/** Markdown's HTML, made safe to insert. */
export function sanitize(html: string): string {
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: [
      'img',
      'style',
      'svg',
      'math',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
    ],
    FORBID_ATTR: ['style', 'class', 'id', 'srcset'],
    ALLOW_DATA_ATTR: false,
  });
}
