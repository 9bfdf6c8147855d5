import DOMPurify from 'dompurify';

const allowedLink = /^(https?:|mailto:)/i;
/** A reply's citation marker: it opens the passage on the page, never leaves it. */
const sourceLink = /^#cite-\d+$/;
const mathNamespace = 'http://www.w3.org/1998/Math/MathML';

// What marked produces, and nothing else: no images (tracking pixels), no styles, no forms, no
// embedded documents. `input` is only ever a task list's checkbox (forced below).
const htmlAttributes: Record<string, string[]> = {
  a: ['href', 'title'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
  input: ['type', 'checked', 'disabled'],
};
const htmlTags = [
  ...Object.keys(htmlAttributes),
  ...['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code'],
  ...['em', 'strong', 'del', 'ul', 'li', 'table', 'thead', 'tbody', 'tr'],
];

// The MathML KaTeX writes (presentation only: no maction, no annotation-xml, no mglyph) and its
// layout attributes; never href, event handlers, style, class or id.
const mathTags = [
  ...['math', 'semantics', 'annotation', 'mrow', 'mi', 'mo', 'mn', 'mtext', 'mspace', 'mstyle'],
  ...['msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'munder', 'mover', 'munderover'],
  ...['mtable', 'mtr', 'mtd', 'mpadded', 'mphantom', 'menclose'],
];
const mathAttributes = new Set([
  ...['display', 'encoding', 'mathvariant', 'mathcolor', 'mathbackground', 'mathsize'],
  ...['fence', 'stretchy', 'separator', 'lspace', 'rspace', 'minsize', 'maxsize', 'largeop'],
  ...['width', 'height', 'depth', 'voffset', 'valign', 'linebreak', 'linethickness', 'notation'],
  ...['accent', 'accentunder', 'scriptlevel', 'displaystyle'],
  ...['columnalign', 'columnspacing', 'columnlines', 'rowspacing', 'rowlines'],
]);

const config = {
  ALLOWED_TAGS: [...htmlTags, ...mathTags],
  ALLOWED_ATTR: [...Object.values(htmlAttributes).flat(), ...mathAttributes],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

// ALLOWED_ATTR is one list for every element: narrow it to the attributes each element has a use for.
DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
  const allowed =
    node.namespaceURI === mathNamespace
      ? mathAttributes.has(data.attrName)
      : (htmlAttributes[node.nodeName.toLowerCase()]?.includes(data.attrName) ?? false);
  if (!allowed) data.keepAttr = false;
});

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // A task list item's box shows its state and is read out as "checked" or "not checked"; never a control.
  if (node.nodeName === 'INPUT') {
    node.setAttribute('type', 'checkbox');
    node.setAttribute('disabled', '');
    return;
  }
  if (node.nodeName !== 'A') return;
  // Links only to the web or mail, opened apart from the app; a reply's `[n]` marks its own sources.
  const href = node.getAttribute('href') ?? '';
  if (sourceLink.test(href)) return;
  if (!allowedLink.test(href.trim())) {
    node.removeAttribute('href');
    return;
  }
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer nofollow');
});

/** Markdown's HTML, made safe to insert. */
export function sanitize(html: string): string {
  return DOMPurify.sanitize(html, config);
}
