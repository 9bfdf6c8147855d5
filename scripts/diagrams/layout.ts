import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'puppeteer';

/** A box of text in a rendered diagram, in CSS pixels at the diagram's own size. */
export interface RenderedLabel {
  /** `edge`: a transition's label; `state`: a state's box (its name and sentence); `group`: a composite state's title. */
  kind: 'edge' | 'state' | 'group';
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RenderedDiagram {
  svg: string;
  /** The width Mermaid gives the drawing (its viewBox, and the `max-width` it is shown at). */
  width: number;
  height: number;
  labels: RenderedLabel[];
}

/**
 * Runs in the page: plain JavaScript in a string, so that no build step's helpers (esbuild's `__name`) end up
 * in a page that does not have them.
 */
const measureInPage = `(() => {
  const root = document.querySelector('svg');
  const { width, height } = root.viewBox.baseVal;
  // At 1:1, so that client rectangles are the diagram's own pixels.
  root.style.width = width + 'px';
  root.style.height = height + 'px';
  root.style.maxWidth = 'none';
  const origin = root.getBoundingClientRect();
  const found = [
    // The text of an edge's label (its grey background), not the foreignObject around it.
    ...[...root.querySelectorAll('g.edgeLabel .labelBkg')].map((element) => ['edge', element]),
    // A state is its whole box (its name, its sentence, its lines); start and end dots are shapes too.
    ...[...root.querySelectorAll('g.node')].map((element) => ['state', element]),
    ...[...root.querySelectorAll('g.cluster-label')].map((element) => ['group', element]),
  ].map(([kind, element]) => ({ kind, element, rect: element.getBoundingClientRect() }));
  // Text read once the boxes are measured: a line break becomes a space, so that words on two lines stay two.
  for (const br of root.querySelectorAll('br')) br.replaceWith(' ');
  return {
    width,
    height,
    labels: found
      .map(({ kind, element, rect }) => {
        const parts = kind === 'state' ? [...element.querySelectorAll('foreignObject')] : [element];
        const text = parts.map((part) => part.textContent).join(' ').replace(/\\s+/g, ' ').trim();
        return { kind, text, x: rect.x - origin.x, y: rect.y - origin.y, width: rect.width, height: rect.height };
      })
      .filter((label) => label.width > 0 && label.height > 0 && (label.kind === 'state' || label.text)),
  };
})()`;

/** What the renderer's page loads: mermaid-cli's page and the ESM builds (with their chunks) it imports. */
const folderOf = (name: string) => dirname(fileURLToPath(import.meta.resolve(name)));
const servedFolders: Record<string, string> = {
  page: join(folderOf('@mermaid-js/mermaid-cli'), '../dist'),
  mermaid: folderOf('mermaid'),
  elk: folderOf('@mermaid-js/layout-elk'),
};

/**
 * Diagrams rendered as mermaid-cli renders them (its page, Mermaid with the ELK layouts, `mermaid.render`
 * into the container), all in one page: mermaid-cli opens a page and compiles Mermaid again for each
 * one (seconds apiece). Then each is laid out at its own size in that page to read where each label
 * landed (the SVG text alone does not say: its labels are HTML in `foreignObject`s). One at a time.
 */
export async function openRenderer(browser: Browser) {
  const files = createServer((request, response) => {
    const [, folder, path] =
      /^\/(\w+)\/([\w./-]+)$/.exec(new URL(request.url ?? '/', 'http://x').pathname) ?? [];
    const root = servedFolders[folder];
    const file = root && normalize(join(root, path));
    if (!file?.startsWith(root) || !existsSync(file)) return void response.writeHead(404).end();
    const type = file.endsWith('.html') ? 'text/html' : 'text/javascript';
    response.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const { port } = files.address() as AddressInfo;
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/page/index.html`);
  await page.evaluate(`(async () => {
    const { default: mermaid } = await import('/mermaid/mermaid.esm.mjs');
    const { default: elkLayouts } = await import('/elk/mermaid-layout-elk.esm.mjs');
    mermaid.registerLayoutLoaders(elkLayouts);
    mermaid.initialize({ startOnLoad: false });
    window.renderDiagram = async (source) => {
      const container = document.getElementById('container');
      const { svg } = await mermaid.render('my-svg', source, container);
      container.innerHTML = svg;
      return svg;
    };
  })()`);
  let queue: Promise<unknown> = Promise.resolve();
  const renderOne = async (source: string): Promise<RenderedDiagram> => {
    const svg = (await page.evaluate(`window.renderDiagram(${JSON.stringify(source)})`)) as string;
    const measured = (await page.evaluate(measureInPage)) as Omit<RenderedDiagram, 'svg'>;
    return { svg, ...measured };
  };
  return {
    render(source: string): Promise<RenderedDiagram> {
      const rendered = queue.then(() => renderOne(source));
      queue = rendered.catch(() => {});
      return rendered;
    },
    async close() {
      await page.close();
      await new Promise((resolve) => files.close(resolve));
    },
  };
}

/** Pairs of labels that overlap by more than `tolerance` pixels both ways. */
export function overlappingLabels(labels: RenderedLabel[], tolerance = 1): [RenderedLabel, RenderedLabel][] {
  const pairs: [RenderedLabel, RenderedLabel][] = [];
  for (const [index, a] of labels.entries())
    for (const b of labels.slice(index + 1)) {
      const across = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const down = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (across > tolerance && down > tolerance) pairs.push([a, b]);
    }
  return pairs;
}
