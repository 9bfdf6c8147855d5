import type { MarkedExtension, Tokens } from 'marked';
import { escapeHtml } from './escapeHtml';
import { mathModule } from './extras';

interface MathToken extends Tokens.Generic {
  type: 'inlineMath' | 'displayMath';
  raw: string;
  text: string;
  display: boolean;
}

// A TeX unit: an escaped character (so \$ stays inside) or anything but a backslash or dollar.
const unit = String.raw`(?:\\[\s\S]|[^\\$])`;
// Pandoc's rule, so prices are not formulas ("$5 and $10"): no space after the opening $, none before
// the closing $, and no digit right after it.
const inlineRule = new RegExp(String.raw`^\$(?![\s$])(${unit}*?(?:\\[\s\S]|[^\s\\$]))\$(?!\d)`);
const displayRule = new RegExp(String.raw`^\$\$(${unit}+?)\$\$`);
// $$ … $$ standing alone on its lines is a block of its own.
const blockRule = new RegExp(String.raw`^ {0,3}\$\$(${unit}+?)\$\$[ \t]*(?:\n+|$)`);

const mathToken = (match: RegExpExecArray, type: MathToken['type'], display: boolean): MathToken => ({
  type,
  raw: match[0],
  text: match[1].trim(),
  display,
});

/**
 * MathML once the KaTeX chunk has arrived, the TeX source as code until then or when it is not valid
 * TeX. Tokens are found here, in the main parser, so formulas stream like any text; blocks holding
 * one re-render when KaTeX arrives (see Markdown's HtmlBlock).
 */
function render(token: MathToken): string {
  const html = mathModule.current()?.renderMath(token.text, token.display);
  const block = token.type === 'displayMath';
  if (html) return block ? `${html}\n` : html;
  const source = `<code>${escapeHtml(token.raw.trim())}</code>`;
  return block ? `<pre>${source}</pre>\n` : source;
}

/** `$…$` inline and `$$…$$` display math for marked. */
export const mathExtension: MarkedExtension = {
  extensions: [
    {
      name: 'displayMath',
      level: 'block',
      start: (src) => src.match(/^ {0,3}\$\$/m)?.index,
      tokenizer(src) {
        const match = blockRule.exec(src);
        return match ? mathToken(match, 'displayMath', true) : undefined;
      },
      renderer: (token) => render(token as MathToken),
    },
    {
      name: 'inlineMath',
      level: 'inline',
      start: (src) => {
        const index = src.indexOf('$');
        return index < 0 ? undefined : index;
      },
      tokenizer(src) {
        const display = displayRule.exec(src);
        if (display) return mathToken(display, 'inlineMath', true);
        const inline = inlineRule.exec(src);
        return inline ? mathToken(inline, 'inlineMath', false) : undefined;
      },
      renderer: (token) => render(token as MathToken),
    },
  ],
};
