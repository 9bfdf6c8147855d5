import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { machines } from '../../scripts/diagrams/machines';
import { machineDiagrams, renderMachinesDoc, stateId } from '../../scripts/diagrams/render';
import { browserModels } from './browser/models';
import { atomicStates, browserPathsByKind, desktop, galleryStates, phone } from './browser/runner';

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

// A machine may share a region or a helper with another machine, never reach into the app or the server:
// what it imports must stay pure XState, as runnable in the model tests as in the Stately editor.
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)'([^']+)'/gm)].map(
    (match) => match[1],
  );
const isMachinesFile = (specifier: string) =>
  /^\.\/[\w.-]+$/.test(specifier) && existsSync(`machines/${specifier.slice(2)}.ts`);

describe.each(readdirSync('machines'))('machines/%s', (name) => {
  it('imports only xstate and files of machines/', () => {
    const imports = importsOf(`machines/${name}`);
    expect(imports.filter((specifier) => specifier !== 'xstate' && !isMachinesFile(specifier))).toEqual([]);
  });
});

describe.each(machines.map(({ file, machine }) => [machine.id, file, machine] as const))(
  'machine %s (%s)',
  (_id, _file, machine) => {
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
      for (const viewport of [desktop, phone]) {
        const shown = galleryStates(model, viewport);
        const { toStates } = browserPathsByKind(model, viewport);
        expect(shown.map((state) => state.id)).toEqual(atomicStates(model.machine));
        // Only the shortest path to each state is walked at phone size.
        expect(shown.filter((state) => state.pathIndex >= toStates)).toEqual([]);
      }
    },
  );
});
