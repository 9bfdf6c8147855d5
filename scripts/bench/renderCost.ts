import { createElement, type FunctionComponent } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Markdown } from '../../src/components/markdown/Markdown';
import { markdown } from '../../src/components/markdown/parser';
import { sanitize } from '../../src/components/markdown/sanitize';

type Renderer = FunctionComponent<{ text: string; streaming: boolean }>;

const paragraph = (index: number) =>
  `Paragraph ${index}: the **quick** brown fox jumps over the lazy dog, with \`inline code\`, a [link](https://example.org) and *emphasis* to give the parser real work to do on every line of it.`;

/** The baseline: the whole reply parsed, sanitized and set again for every token. */
const WholeReply: Renderer = ({ text }) =>
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the app's own sanitizer, as in Markdown
  createElement('div', { dangerouslySetInnerHTML: { __html: sanitize(markdown.parse(text) as string) } });

/** Mean milliseconds to render one more streamed token when the reply already holds `paragraphs` - 1 paragraphs. */
function perToken(component: Renderer, paragraphs: number, tokens: number): number {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  let text = Array.from({ length: paragraphs - 1 }, (_, index) => paragraph(index)).join('\n\n');
  if (text) text += '\n\n';
  const tail = paragraph(paragraphs).repeat(3);
  const render = () => flushSync(() => root.render(createElement(component, { text, streaming: true })));
  render();
  const started = performance.now();
  for (let token = 0; token < tokens; token += 1) {
    text += tail.slice(token * 4, token * 4 + 4);
    render();
  }
  const elapsed = (performance.now() - started) / tokens;
  root.unmount();
  container.remove();
  return elapsed;
}

/** Per-token cost at 1, 10 and 50 paragraphs, for Parley's Markdown and for the whole-reply baseline. */
export function measureRenderCost(tokens = 150) {
  return [1, 10, 50].map((paragraphs) => {
    perToken(Markdown, paragraphs, 30);
    return {
      paragraphs,
      markdown: perToken(Markdown, paragraphs, tokens),
      wholeReply: perToken(WholeReply, paragraphs, tokens),
    };
  });
}
