import { type AnyMachineSnapshot, fromCallback, fromPromise } from 'xstate';
import type { ModelEvent, World } from '../harness';

// Invoked actors never settle on their own in these paths: the generated events say how they end.
export const pending = () => fromPromise(() => new Promise<never>(() => {})) as never;
export const silent = () => fromCallback(() => {}) as never;
export const done = (id: string, output?: unknown): ModelEvent => ({
  type: `xstate.done.actor.${id}`,
  output,
});
export const failed = (id: string): ModelEvent => ({
  type: `xstate.error.actor.${id}`,
  error: new Error(`${id} failed`),
});
/** A failure the server tied to a form field, as the HTTP client reports it. */
export const failedOn = (id: string, field: string): ModelEvent => ({
  type: `xstate.error.actor.${id}`,
  error: Object.assign(new Error(`${id} refused ${field}`), { field }),
});
/** An invoked promise that records the input it was started with, and never settles on its own. */
export const recording = (world: World, id: string) =>
  fromPromise(({ input }) => {
    world.calls.push(`${id} ${JSON.stringify(input ?? null)}`);
    return new Promise<never>(() => {});
  }) as never;

/** The last call `recording` wrote down for the invoked actor `id`: its name and its input. */
export const lastCall = (world: World, id: string) =>
  world.calls.filter((call) => call.startsWith(`${id} `)).at(-1);

/** Regions of a parallel machine: one of them at a time leaves its resting states, which keeps the graph small. */
export function regionEvents(
  regions: Record<string, { resting: string[]; events: ModelEvent[] }>,
  always: ModelEvent[] = [],
) {
  return (snapshot: AnyMachineSnapshot) => {
    const value = snapshot.value as Record<string, string>;
    const away = Object.keys(regions).filter((region) => !regions[region].resting.includes(value[region]));
    return [
      ...always,
      ...Object.keys(regions)
        .filter((region) => away.length === 0 || away.includes(region))
        .flatMap((region) => regions[region].events),
    ];
  };
}

// Records more than one machine sees: the user (session, account), a time (topic, conversations), a
// category (admin lists, bot editor).
export const user = { _id: 'u1', displayName: 'Ada Lovelace', username: 'ada' };
export const renamed = { ...user, displayName: 'Ada King' };
export const stamp = '2026-01-02T03:04:05.000Z';
export const category = (id: string) => ({ _id: id, name: `Category ${id}` });
