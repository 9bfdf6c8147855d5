import { existsSync, readFileSync } from 'node:fs';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { openRenderer, overlappingLabels, type RenderedDiagram } from '../../scripts/diagrams/layout';
import { machines } from '../../scripts/diagrams/machines';
import { type Diagram, machineDiagrams } from '../../scripts/diagrams/render';

/** The width of a page docs/machines.md is read on. */
const pageWidth = 1280;

const allNodes = (node: AnyStateNode): AnyStateNode[] => [
  node,
  ...(Object.values(node.states) as AnyStateNode[]).flatMap(allNodes),
];
const isWithin = (node: AnyStateNode, ancestor: AnyStateNode) => {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent)
    if (current === ancestor) return true;
  return false;
};

/** How docs/machines.md says an event reads on an edge (its header): `done: x`, `error: x`, `after n ms`, `always`. */
function eventText(eventType: string): string {
  if (!eventType) return 'always';
  const [, kind, actor] = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType) ?? [];
  if (kind) return `${kind}: ${actor}`;
  const [, delay] = /^xstate\.after\.([^.]+)\./.exec(eventType) ?? [];
  if (delay) return /^\d+$/.test(delay) ? `after ${delay} ms` : `after ${delay}`;
  return eventType;
}

interface Transition {
  source: AnyStateNode;
  event: string;
  targets: AnyStateNode[];
}
const transitionsOf = (node: AnyStateNode): Transition[] =>
  [...[...node.transitions.values()].flat(), ...(node.always ?? [])].map((definition) => ({
    source: node,
    event: eventText(definition.eventType),
    targets: [...(definition.target ?? [])],
  }));

/**
 * The transitions a diagram must show, from the machine's definition: those written in its frame (less those
 * staying inside a state that has a diagram of its own), and those from outside leading into it. A parallel
 * machine's own transitions that stay put are listed in the text, not in a region's diagram.
 */
function expectedTransitions(diagram: Diagram, frames: AnyStateNode[]): Transition[] {
  const frame = diagram.frame;
  const within = (transition: Transition, node: AnyStateNode) =>
    transition.targets.every((target) => isWithin(target, node));
  return allNodes(frame.machine.root)
    .flatMap(transitionsOf)
    .filter((transition) => {
      if (!isWithin(transition.source, frame))
        return transition.targets.some((target) => isWithin(target, frame));
      return !frames.some(
        (inner) =>
          inner !== frame &&
          isWithin(inner, frame) &&
          isWithin(transition.source, inner) &&
          within(transition, inner),
      );
    });
}

/** How many times `text` stands as a whole in `haystack`, not as part of a longer name. */
const occurrences = (haystack: string, text: string) =>
  haystack.match(new RegExp(`(?<![\\w.])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'g'))
    ?.length ?? 0;

// Mermaid in Debian's Chromium, as mermaid-cli runs it: `npx mmdc -p scripts/diagrams/puppeteer.json …`.
const launchOptions: LaunchOptions = JSON.parse(readFileSync('scripts/diagrams/puppeteer.json', 'utf8'));
const diagrams = machines.flatMap(({ machine }) => {
  const ofMachine = machineDiagrams(machine);
  const frames = ofMachine.map((diagram) => diagram.frame);
  return ofMachine.map((diagram) => ({ diagram, frames }));
});

describe.concurrent('docs/machines.md in Mermaid', () => {
  let browser: Browser;
  let renderer: Awaited<ReturnType<typeof openRenderer>>;
  beforeAll(async () => {
    if (!launchOptions.executablePath || !existsSync(launchOptions.executablePath))
      throw new Error(
        `No Chromium at ${launchOptions.executablePath}: the diagrams test renders with Debian's chromium ` +
          '(apt-get install chromium, as .ci/run does); see scripts/diagrams/puppeteer.json.',
      );
    browser = await puppeteer.launch(launchOptions);
    renderer = await openRenderer(browser);
  }, 60_000);
  afterAll(async () => {
    await renderer?.close();
    await browser?.close();
  });

  // Each diagram is rendered once, for all the checks below.
  const rendered = new Map<string, Promise<RenderedDiagram>>();
  const render = (diagram: Diagram) => {
    if (!rendered.has(diagram.name))
      rendered.set(
        diagram.name,
        renderer.render(diagram.source).catch((error: Error) => {
          throw new Error(`Mermaid cannot render the diagram of ${diagram.name}: ${error.message}`);
        }),
      );
    return rendered.get(diagram.name) as Promise<RenderedDiagram>;
  };

  describe.each(diagrams.map(({ diagram, frames }) => [diagram.name, diagram, frames] as const))(
    '%s',
    (name, diagram, frames) => {
      it('renders with exactly the boxes the generator drew', async () => {
        const { svg } = await render(diagram);
        // Mermaid names each box `my-svg-state-<id>-<n>`; the start dots and the dividers of parallel regions are its own.
        const drawn = [...svg.matchAll(/id="my-svg-state-(.+?)-\d+"/g)]
          .map((match) => match[1])
          .filter((id) => !/(^|_)start$|(^|_)end$|^(divider-)?id-/.test(id));
        // A `;` read as the end of a statement, or a stray `:`, shows up as a box nobody declared.
        expect(new Set(drawn), name).toEqual(new Set(diagram.boxes));
      });

      it(`fits a ${pageWidth} px page at its own font size`, async () => {
        const { width } = await render(diagram);
        expect(width, name).toBeLessThanOrEqual(pageWidth);
      });

      it('has no label on top of another (edge labels, states, composite titles)', async () => {
        const { labels } = await render(diagram);
        const overlaps = overlappingLabels(labels).map(
          ([a, b]) => `${a.kind} "${a.text}" / ${b.kind} "${b.text}"`,
        );
        expect(overlaps, name).toEqual([]);
      });

      it('shows the event of every transition the machine defines there', async () => {
        const { labels } = await render(diagram);
        const text = labels.map((label) => label.text).join('\n');
        const expected = new Map<string, number>();
        for (const { event } of expectedTransitions(diagram, frames))
          expected.set(event, (expected.get(event) ?? 0) + 1);
        // Every definition is at least one line of a label, whatever the generator joins on one arrow.
        const missing = [...expected]
          .filter(([event, count]) => occurrences(text, event) < count)
          .map(([event, count]) => `${event}: ${occurrences(text, event)} of ${count}`);
        expect(expected.size, name).toBeGreaterThan(0);
        expect(missing, name).toEqual([]);
      });
    },
  );
});
