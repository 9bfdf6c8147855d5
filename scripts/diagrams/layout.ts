import { renderMermaid } from '@mermaid-js/mermaid-cli';
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

/**
 * A diagram as mermaid-cli renders it, then laid out at its own size in a page of the same browser to read
 * where each label landed (the SVG text alone does not say: its labels are HTML in `foreignObject`s).
 */
export async function renderDiagram(browser: Browser, source: string): Promise<RenderedDiagram> {
  const { data } = await renderMermaid(browser, source, 'svg');
  const svg = new TextDecoder().decode(data);
  const page = await browser.newPage();
  try {
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    const measured = (await page.evaluate(measureInPage)) as Omit<RenderedDiagram, 'svg'>;
    return { svg, ...measured };
  } finally {
    await page.close();
  }
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
