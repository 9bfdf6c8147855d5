import DOMPurify from 'dompurify';

// highlight.js escapes the code itself; this pass is the second lock: spans with its classes, nothing else.
const purifier = DOMPurify(window);
const highlightClass = /^hljs(-[\w-]+)?$|^language-[\w-]+$/;

purifier.addHook('uponSanitizeAttribute', (_node, data) => {
  if (data.attrName !== 'class') return;
  const kept = data.attrValue.split(/\s+/).filter((name) => highlightClass.test(name));
  data.attrValue = kept.join(' ');
  data.keepAttr = kept.length > 0;
});

/** highlight.js output, reduced to text and `span class="hljs-…"`. */
export function sanitizeHighlighted(html: string): string {
  return purifier.sanitize(html, { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'] });
}
