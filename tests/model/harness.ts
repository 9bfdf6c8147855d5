import { chai, type ExpectStatic } from 'vitest';
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  createActor,
  type EventObject,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, serializeSnapshot } from 'xstate/graph';

/**
 * The models' checks: chai's expect with vitest's matchers (`poll` and `soft` are vitest's alone, not
 * used here). Vitest's own counts every call: with chai's proxy (see runModel), 30 % of a replay.
 */
export const expect = chai.expect as unknown as ExpectStatic;

/** An event of a model: its type and any payload. */
export type ModelEvent = { type: string; [key: string]: unknown };

/** What a path's effects did to the world outside the machine. */
export interface World {
  /** The events sent so far on this path. */
  sent: ModelEvent[];
  storage: Storage;
  emitted: EventObject[];
  calls: string[];
}

export interface MachineModel {
  name: string;
  /** The machine with its real action implementations, effects landing in the given world. */
  provide: (world: World) => AnyStateMachine;
  /** Each input is one traversal from its own initial state. */
  inputs: unknown[];
  /** The events a user or an invoked actor can send, tried in every state where they lead somewhere. */
  events: ModelEvent[] | ((snapshot: AnyMachineSnapshot) => ModelEvent[]);
  /** The world as the browser has it before the app starts (e.g. a stored token). */
  prepare?: (world: World, input: unknown) => void;
  /** What must hold in every state a path reaches, given the world after the same steps. */
  check: (snapshot: AnyMachineSnapshot, world: World, event?: ModelEvent) => void;
  /** Context that the state identity ignores, to keep the graph finite. */
  serialize?: (snapshot: AnyMachineSnapshot) => string;
}

export interface ModelRun {
  paths: number;
  covered: Set<string>;
  all: Set<string>;
}

/** An in-memory Storage, the same interface the app's stored values use in the browser. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

/** A transition's name: its source, its event and its place among that event's transitions. */
export function transitionKey(source: AnyStateNode, eventType: string, index: number | unknown) {
  const position =
    typeof index === 'number' ? index : (source.transitions.get(eventType)?.indexOf(index as never) ?? -1);
  return `${source.id} ─ ${eventType || 'always'} #${position}`;
}

/** Every transition a machine defines: events, invoke done and error, delays and eventless ones. */
export function allTransitions(machine: AnyStateMachine): Set<string> {
  const keys = new Set<string>();
  const visit = (node: AnyStateNode) => {
    for (const [eventType, definitions] of node.transitions) {
      for (const index of definitions.keys()) keys.add(transitionKey(node, eventType, index));
    }
    for (const index of node.always?.keys() ?? []) keys.add(transitionKey(node, '', index));
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return keys;
}

function keyOf(transition: { source: AnyStateNode; eventType: string }, definition: unknown): string {
  const { source, eventType } = transition;
  const always = source.always?.indexOf(definition as never) ?? -1;
  if (always >= 0) return transitionKey(source, '', always);
  return transitionKey(source, eventType, definition);
}

/**
 * Generates paths with xstate/graph (one per edge of the state graph: the shortest path to a state,
 * then one event), replays each on a live actor with the real actions, checks every state on the
 * way, and records which transitions actually ran.
 */
export function runModel(model: MachineModel): ModelRun {
  // chai's proxy guards property assertions against typos (TypeScript does that here), at a cost paid
  // on each of a million checks: off while the paths replay.
  const { useProxy } = chai.config;
  chai.config.useProxy = false;
  try {
    return replayAll(model);
  } finally {
    chai.config.useProxy = useProxy;
  }
}

function replayAll(model: MachineModel): ModelRun {
  const { machine: pure, replayIn } = providedOnce(model);
  const all = allTransitions(pure);
  const covered = new Set<string>();
  let paths = 0;
  for (const input of model.inputs) {
    const options = {
      input,
      events: (snapshot: AnyMachineSnapshot) =>
        (typeof model.events === 'function' ? model.events(snapshot) : model.events).filter((event) =>
          snapshot.can(event),
        ),
      serializeState: (snapshot: AnyMachineSnapshot) =>
        model.serialize?.(snapshot) ?? serializeSnapshot(snapshot),
    };
    const shortest = new Map(
      getShortestPaths(pure, options as never).map((path) => [
        options.serializeState(path.state as never),
        path,
      ]),
    );
    // The initial state itself is a path too: some inputs end there (e.g. ?language= reloads at once).
    paths += 1;
    replay(model, pure, replayIn, input, [], covered);
    const adjacency = getAdjacencyMap(pure, options as never);
    for (const [stateKey, { transitions }] of Object.entries(adjacency)) {
      const prefix =
        shortest
          .get(stateKey)
          ?.steps.map((step) => step.event)
          .filter((event) => !event.type.startsWith('xstate.init')) ?? [];
      for (const { event } of Object.values(transitions) as { event: ModelEvent }[]) {
        paths += 1;
        replay(model, pure, replayIn, input, [...prefix, event], covered);
      }
    }
  }
  return { paths, covered, all };
}

const newWorld = (): World => ({ sent: [], storage: memoryStorage(), emitted: [], calls: [] });

/**
 * The model's machine, provided once: its effects land in the world of the path being replayed
 * (`replayIn`). Providing a machine builds its whole state tree again, which took most of a replay.
 */
function providedOnce(model: MachineModel) {
  let current = newWorld();
  const storage: Storage = {
    get length() {
      return current.storage.length;
    },
    clear: () => current.storage.clear(),
    getItem: (key) => current.storage.getItem(key),
    key: (index) => current.storage.key(index),
    removeItem: (key) => current.storage.removeItem(key),
    setItem: (key, value) => current.storage.setItem(key, value),
  };
  const world: World = {
    get sent() {
      return current.sent;
    },
    get emitted() {
      return current.emitted;
    },
    get calls() {
      return current.calls;
    },
    storage,
  };
  return {
    machine: model.provide(world),
    replayIn: (next: World) => {
      current = next;
    },
  };
}

function replay(
  model: MachineModel,
  machine: AnyStateMachine,
  replayIn: (world: World) => void,
  input: unknown,
  events: ModelEvent[],
  covered: Set<string>,
) {
  const world = newWorld();
  model.prepare?.(world, input);
  replayIn(world);
  const actor = createActor(machine as AnyStateMachine, {
    input: input as never,
    inspect: (inspection) => {
      // Only machines take microsteps: the one under test (its invoked promises and callbacks take none).
      if (inspection.type !== '@xstate.microstep') return;
      for (const definition of (
        inspection as unknown as { _transitions: { source: AnyStateNode; eventType: string }[] }
      )._transitions) {
        covered.add(keyOf(definition, definition));
      }
    },
  });
  actor.on('*', (emitted) => {
    world.emitted.push(emitted);
  });
  actor.start();
  model.check(actor.getSnapshot(), world);
  for (const event of events) {
    world.sent.push(event);
    actor.send(event);
    try {
      model.check(actor.getSnapshot(), world, event);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n  on the path: ${JSON.stringify(world.sent)}`);
    }
  }
  actor.stop();
}

/** Prints and returns the figure the coverage test holds to 100 %. */
export function report(name: string, run: ModelRun): string {
  const missing = [...run.all].filter((key) => !run.covered.has(key));
  const line = `${name}: ${run.paths} paths, transitions covered: ${run.all.size - missing.length}/${run.all.size}`;
  console.log(line + (missing.length ? `\n  not covered:\n  ${missing.join('\n  ')}` : ''));
  return line;
}
