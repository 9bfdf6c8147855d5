import katex from 'katex';

const mathEnd = '</math>';

/**
 * TeX as MathML, or null when it is not valid TeX. MathML alone (no KaTeX HTML) needs no fonts, no
 * stylesheet and no style attributes, which the CSP (style-src 'self') would block; Chromium renders
 * it natively. `trust: false` keeps \href, \url, \includegraphics and \html* inert.
 */
export function renderMath(tex: string, display: boolean): string | null {
  try {
    const html = katex.renderToString(tex, {
      output: 'mathml',
      displayMode: display,
      throwOnError: true,
      trust: false,
      strict: 'ignore',
    });
    // Only the <math> element: KaTeX's wrapping span carries a class we do not keep.
    return html.slice(html.indexOf('<math'), html.lastIndexOf(mathEnd) + mathEnd.length);
  } catch {
    return null;
  }
}
