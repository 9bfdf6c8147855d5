import { existsSync, readFileSync } from 'node:fs';
import { renderMermaid } from '@mermaid-js/mermaid-cli';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { machines } from '../../scripts/diagrams/machines';
import { machineDiagrams, renderMachinesDoc, stateId } from '../../scripts/diagrams/render';
import { browserModels } from './browser/models';
import { atomicStates, browserPathsByKind, galleryStates } from './browser/runner';

const allNodes = (node: AnyStateNode): AnyStateNode[] => [
  node,
  ...(Object.values(node.states) as AnyStateNode[]).flatMap(allNodes),
];
const isNamed = (item: unknown) =>
  typeof item === 'string' ||
  (typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string');
// `after` adds its own timer actions to the state's entry and exit: xstate's, not ours.
const isDelayTimer = (item: unknown) =>
  typeof item === 'function' &&
  ['xstate.raise', 'xstate.cancel'].includes((item as { type?: string }).type ?? '');

describe.each(machines.map(({ file, machine }) => [machine.id, file, machine] as const))(
  'machine %s (%s)',
  (_id, file, machine) => {
    it('imports nothing but xstate', () => {
      const imports = [...readFileSync(file, 'utf8').matchAll(/^import[^;]*?from\s+'([^']+)'/gms)].map(
        (match) => match[1],
      );
      expect(imports.length).toBeGreaterThan(0);
      expect(new Set(imports)).toEqual(new Set(['xstate']));
    });

    it('describes every state in a sentence', () => {
      const missing = allNodes(machine.root)
        .filter((node) => node.type !== 'history' && !node.description?.trim())
        .map((node) => node.id);
      expect(missing).toEqual([]);
    });

    it('refers to every action, guard and actor by name', () => {
      const anonymous: string[] = [];
      for (const node of allNodes(machine.root)) {
        for (const action of [...node.entry, ...node.exit])
          if (!isNamed(action) && !isDelayTimer(action)) anonymous.push(`${node.id} entry/exit`);
        for (const definition of [...[...node.transitions.values()].flat(), ...(node.always ?? [])]) {
          for (const action of definition.actions)
            if (!isNamed(action)) anonymous.push(`${node.id} ${definition.eventType} action`);
          if (definition.guard && !isNamed(definition.guard))
            anonymous.push(`${node.id} ${definition.eventType} guard`);
        }
        for (const invoke of node.invoke)
          if (typeof invoke.src !== 'string') anonymous.push(`${node.id} invoke`);
      }
      expect(anonymous).toEqual([]);
    });
  },
);

describe('docs/machines.md', () => {
  it('is the diagrams of the machines as they are now (run `npm run diagrams` after a change)', () => {
    expect(readFileSync('docs/machines.md', 'utf8')).toBe(renderMachinesDoc());
  });

  it('draws every state of every machine', () => {
    for (const { machine } of machines) {
      const diagrams = machineDiagrams(machine);
      const boxes = new Set(diagrams.flatMap((diagram) => diagram.boxes));
      const frames = new Set(diagrams.map((diagram) => diagram.frame));
      // A state is a box in a diagram, or the frame a diagram draws the inside of (the machine, a region,
      // a big state); the machine is the section itself.
      const missing = allNodes(machine.root)
        .filter((node) => node !== machine.root && !boxes.has(stateId(node)) && !frames.has(node))
        .map((node) => node.id);
      expect(missing).toEqual([]);
    }
  });
});

describe('the state gallery (npm run gallery)', () => {
  it.each(browserModels.map((model) => [model.name, model] as const))(
    'shows every atomic state of %s, on a path walked at both widths',
    (_name, model) => {
      const shown = galleryStates(model);
      const { toStates } = browserPathsByKind(model);
      expect(shown.map((state) => state.id)).toEqual(atomicStates(model.machine));
      // Only the shortest path to each state is walked at phone size too.
      expect(shown.filter((state) => state.pathIndex >= toStates)).toEqual([]);
    },
  );
});

// Mermaid in Debian's Chromium, as mermaid-cli runs it: `npx mmdc -p scripts/diagrams/puppeteer.json …`.
const launchOptions: LaunchOptions = JSON.parse(readFileSync('scripts/diagrams/puppeteer.json', 'utf8'));
const diagrams = machines.flatMap(({ machine }) => machineDiagrams(machine));

describe.concurrent('docs/machines.md in Mermaid', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!launchOptions.executablePath || !existsSync(launchOptions.executablePath))
      throw new Error(
        `No Chromium at ${launchOptions.executablePath}: the diagrams test renders with Debian's chromium ` +
          '(apt-get install chromium, as .ci/run does); see scripts/diagrams/puppeteer.json.',
      );
    browser = await puppeteer.launch(launchOptions);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it.each(diagrams.map((diagram) => [diagram.name, diagram] as const))(
    'renders %s, with exactly the boxes the generator drew',
    async (name, diagram) => {
      let svg: string;
      try {
        const { data } = await renderMermaid(browser, diagram.source, 'svg');
        svg = new TextDecoder().decode(data);
      } catch (error) {
        throw new Error(`Mermaid cannot render the diagram of ${name}: ${(error as Error).message}`);
      }
      // Mermaid names each box `my-svg-state-<id>-<n>`; the start dots and the dividers of parallel regions are its own.
      const drawn = [...svg.matchAll(/id="my-svg-state-(.+?)-\d+"/g)]
        .map((match) => match[1])
        .filter((id) => !/(^|_)start$|(^|_)end$|^(divider-)?id-/.test(id));
      // A `;` read as the end of a statement, or a stray `:`, shows up as a box nobody declared.
      expect(new Set(drawn), name).toEqual(new Set(diagram.boxes));
    },
  );
});
