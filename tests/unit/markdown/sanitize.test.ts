import { describe, expect, it } from 'vitest';
import { renderMath } from '../../../src/components/markdown/math';
import { sanitize } from '../../../src/components/markdown/sanitize';
import { sanitizeHighlighted } from '../../../src/components/markdown/sanitizeHighlighted';
import { assertSafe } from './assertSafe';

// Markdown escapes raw HTML before the sanitizer sees it: these reach it directly, as if that failed.
const rawPayloads = [
  '<math><maction actiontype="statusline#x" onclick="window.__pwned=1"><mi>x</mi></maction></math>',
  '<math><semantics><mi>x</mi><annotation-xml encoding="text/html"><script>window.__pwned=1</script><img src=x onerror=window.__pwned=1></annotation-xml></semantics></math>',
  '<math><mi href="javascript:window.__pwned=1">x</mi><mtext><a href="javascript:window.__pwned=1">y</a></mtext></math>',
  '<math><mi xlink:href="javascript:window.__pwned=1" style="color:red" class="x" id="y" data-x="1">x</mi></math>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1>',
  '<math><mglyph src="https://evil.example/pixel.png"></mglyph><ms>x</ms></math>',
  '<input type="text" value="x" autofocus onfocus="window.__pwned=1" name="n" form="f">',
  '<ul><li><input type="image" src="https://evil.example/pixel.png"> x</li></ul>',
  '<table><tr><td align="left" style="x" onclick="window.__pwned=1" background="javascript:1">x</td></tr></table>',
];

const html = (markup: string) => {
  const element = document.createElement('div');
  element.className = 'markdown-block';
  element.innerHTML = sanitize(markup);
  const container = document.createElement('div');
  container.append(element);
  return container;
};

describe('sanitize: only what markdown and KaTeX produce gets through', () => {
  it.each(rawPayloads.map((payload) => [payload]))('neutralizes %s', (payload) => {
    const container = html(payload);
    assertSafe(container);
    expect(container.querySelector('maction, annotation-xml, mglyph, ms, script')).toBeNull();
  });

  it('keeps task list checkboxes as disabled, read-only boxes with their state', () => {
    const container = html('<ul><li><input checked="" disabled="" type="checkbox"> done</li></ul>');
    const box = container.querySelector('input');
    expect(box?.outerHTML).toBe('<input checked="" disabled="" type="checkbox">');
  });

  it('keeps the MathML KaTeX writes, attributes included', () => {
    const tex = String.raw`\sum_{i=0}^n \frac{\sqrt[3]{x}}{\hat{y}} \begin{pmatrix}a\\b\end{pmatrix} \color{red}{\boxed{z}} \xrightarrow{f} \mathbb{R}`;
    const math = renderMath(tex, true) ?? '';
    expect(math).toMatch(/^<math[^>]* display="block"/);
    // Only the namespace declaration goes: HTML parsing places <math> in MathML without it.
    expect(sanitize(math)).toBe(math.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', ''));
  });

  it('returns null for TeX that does not parse', () => {
    expect(renderMath(String.raw`\frac{`, false)).toBeNull();
  });
});

describe('sanitizeHighlighted: spans with highlight.js classes, nothing else', () => {
  it('drops other elements, attributes and classes', () => {
    expect(
      sanitizeHighlighted(
        '<span class="hljs-keyword evil" onclick="x" style="y">a</span><img src=x onerror=y><a href="javascript:x">b</a><span class="x">c</span><span class="language-xml hljs-tag">d</span>',
      ),
    ).toBe('<span class="hljs-keyword">a</span>b<span>c</span><span class="language-xml hljs-tag">d</span>');
  });
});
