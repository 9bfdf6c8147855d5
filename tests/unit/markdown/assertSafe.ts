import { expect } from 'vitest';

const mathNamespace = 'http://www.w3.org/1998/Math/MathML';
// Everything the sanitizer lets through from MathML: what KaTeX writes, nothing interactive.
const allowedMath = new Set(
  'math semantics annotation mrow mi mo mn mtext mspace mstyle msup msub msubsup mfrac msqrt mroot munder mover munderover mtable mtr mtd mpadded mphantom menclose'.split(
    ' ',
  ),
);
const highlightClass = /^hljs(-[\w-]+)?$|^language-[\w-]+$/;

/** Rendered bot output in which nothing can run, load, or act: checked element by element. */
export function assertSafe(container: Element) {
  expect(
    container.querySelectorAll(
      'script, iframe, object, embed, form, button:not(.code-block button), textarea, select, svg, img, style, link, meta, body',
    ),
  ).toHaveLength(0);
  for (const input of container.querySelectorAll('input')) {
    expect(input.getAttribute('type')).toBe('checkbox');
    expect(input.hasAttribute('disabled')).toBe(true);
    for (const attribute of input.attributes)
      expect(['type', 'checked', 'disabled']).toContain(attribute.name);
  }
  for (const element of container.querySelectorAll('*')) {
    if (element.namespaceURI === mathNamespace) expect(allowedMath).toContain(element.localName);
    for (const attribute of element.attributes) {
      expect(attribute.name.startsWith('on')).toBe(false);
      expect(attribute.name.includes(':')).toBe(false);
      expect(['style', 'id', 'src', 'srcdoc', 'action', 'formaction', 'actiontype']).not.toContain(
        attribute.name,
      );
      expect(
        [...attribute.value]
          .filter((char) => char > ' ')
          .join('')
          .toLowerCase(),
      ).not.toMatch(/^(javascript|vbscript|data):/);
      if (attribute.name === 'href') {
        expect(element.localName).toBe('a');
        expect(attribute.value).toMatch(/^(https?:|mailto:)/);
      }
      // Sanitized markup carries no classes; highlighted code only highlight.js's.
      if (attribute.name === 'class' && element.parentElement?.closest('.markdown-block'))
        expect.fail(`class="${attribute.value}" on <${element.localName}>`);
      if (attribute.name === 'class' && element.parentElement?.closest('.code-block code'))
        for (const name of attribute.value.split(' ')) expect(name).toMatch(highlightClass);
    }
  }
  expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
}
