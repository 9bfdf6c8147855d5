import { JSDOM } from 'jsdom';
import { createElement, type FunctionComponent } from 'react';
import { ms } from './stats';

const paragraph = (index: number) =>
  `Paragraph ${index}: the **quick** brown fox jumps over the lazy dog, with \`inline code\`, a [link](https://example.org) and *emphasis* to give the parser real work to do on every line of it.`;

/** Mean milliseconds to render one more streamed token when the reply already holds `paragraphs` - 1 paragraphs. */
async function perToken(
  component: FunctionComponent<{ text: string; streaming: boolean }>,
  paragraphs: number,
  tokens = 150,
) {
  const { createRoot } = await import('react-dom/client');
  const { flushSync } = await import('react-dom');
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

/** Per-token render cost of a streamed reply: Parley's block-memoized Markdown against re-rendering it all. */
export async function printRenderFigures(): Promise<void> {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
  Object.assign(globalThis, {
    window: dom.window,
    document: dom.window.document,
    navigator: dom.window.navigator,
  });
  for (const name of [
    'HTMLElement',
    'Node',
    'Element',
    'DocumentFragment',
    'DOMParser',
    'NodeFilter',
    'HTMLTemplateElement',
  ]) {
    Object.assign(globalThis, { [name]: (dom.window as unknown as Record<string, unknown>)[name] });
  }
  // DOMPurify and React find the DOM on import, so they come after it.
  const { Markdown } = await import('../../src/components/markdown/Markdown');
  const { sanitize } = await import('../../src/components/markdown/sanitize');
  const { markdown } = await import('../../src/components/markdown/parser');
  const Naive: FunctionComponent<{ text: string }> = ({ text }) =>
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the app's own sanitizer, as in Markdown
    createElement('div', { dangerouslySetInnerHTML: { __html: sanitize(markdown.parse(text) as string) } });

  console.log('## Streaming render cost per token (jsdom, React 19, mean of 150 tokens)');
  console.log('paragraphs | Parley Markdown | whole reply re-rendered');
  for (const paragraphs of [1, 10, 50]) {
    await perToken(Markdown, paragraphs, 30);
    const memoized = await perToken(Markdown, paragraphs);
    const naive = await perToken(
      Naive as FunctionComponent<{ text: string; streaming: boolean }>,
      paragraphs,
    );
    console.log(
      `${String(paragraphs).padStart(10)} | ${ms(memoized).padStart(15)} | ${ms(naive).padStart(10)}`,
    );
  }
}
