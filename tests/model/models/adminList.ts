import { adminListMachine } from '../../../machines/adminList';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { category, done, failed, failedOn, lastCall, recording, regionEvents } from './shared';

export const adminListModel: MachineModel = {
  name: 'adminList',
  provide: (world) =>
    adminListMachine.provide({
      actors: { fetchPage: recording(world, 'fetchPage'), applyChange: recording(world, 'applyChange') },
      actions: { announceChange: ({ context }) => world.calls.push(`announce ${context.done}`) },
    }),
  inputs: [undefined],
  events: regionEvents(
    {
      list: {
        resting: ['idle', 'loaded'],
        events: [
          { type: 'LOAD' },
          { type: 'RETRY' },
          { type: 'LOAD_MORE' },
          done('fetchPage', { items: [category('k1'), category('k2')], next: 'cursor-2' }),
          failed('fetchPage'),
          done('fetchMore', { items: [category('k2'), category('k3')], next: null }),
          failed('fetchMore'),
        ],
      },
      change: {
        resting: ['idle'],
        events: [
          { type: 'EDIT', id: 'k1' },
          { type: 'EDIT', id: 'new' },
          { type: 'SAVE', change: { kind: 'create', values: { name: 'Fun' } } },
          { type: 'SAVE', change: { kind: 'update', id: 'k1', values: { name: 'Games' } } },
          { type: 'ASK_REMOVE', record: category('k1') },
          { type: 'CONFIRM' },
          { type: 'CANCEL' },
          done('saveChange', category('k1')),
          failedOn('saveChange', 'name'),
          done('removeRecord'),
          failed('removeRecord'),
        ],
      },
    },
    [{ type: 'RESET' }],
  ),
  serialize: (snapshot) => {
    const { items, next, error, editing, target, problem, done: last } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.map((item: { _id: string }) => item._id),
      next,
      !!error,
      editing,
      target?._id ?? null,
      !!problem,
      last,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const ids = context.items.map((item: { _id: string }) => item._id);
    // No record is listed twice, however the pages overlap.
    expect(new Set(ids).size).toBe(ids.length);
    if (snapshot.matches({ list: 'loadingMore' }))
      expect(lastCall(world, 'fetchPage')).toBe('fetchPage {"cursor":"cursor-2"}');
    if (snapshot.matches({ list: 'loading' }))
      expect(lastCall(world, 'fetchPage')).toBe('fetchPage {"cursor":""}');
    if (event?.type === 'LOAD_MORE' && context.next === null)
      expect(snapshot.matches({ list: 'loadingMore' })).toBe(false);
    if (snapshot.matches({ list: 'failed' })) expect(context.error).toBe('fetchPage failed');
    // A change is sent as asked; a removal only once confirmed, and for the record confirmed.
    if (event?.type === 'SAVE')
      expect(lastCall(world, 'applyChange')).toBe(
        `applyChange ${JSON.stringify({ change: (event as unknown as { change: unknown }).change })}`,
      );
    if (event?.type === 'CONFIRM')
      expect(lastCall(world, 'applyChange')).toBe('applyChange {"change":{"kind":"remove","id":"k1"}}');
    if (snapshot.matches({ change: 'confirming' })) expect(context.target?._id).toBe('k1');
    // Whatever went through is announced, and the list read afresh.
    if (event?.type === 'xstate.done.actor.saveChange' || event?.type === 'xstate.done.actor.removeRecord') {
      expect(world.calls.filter((call) => call.startsWith('announce')).at(-1)).toBe(
        `announce ${context.done}`,
      );
      expect(snapshot.matches({ list: 'loading' })).toBe(true);
      expect(context.stale).toBe(false);
      expect(context.problem).toBeNull();
    }
    if (event?.type === 'xstate.error.actor.saveChange') {
      expect(snapshot.matches({ change: 'editing' })).toBe(true);
      expect(context.problem).toEqual({ message: 'saveChange refused name', field: 'name' });
    }
    if (event?.type === 'xstate.error.actor.removeRecord')
      expect(context.problem?.message).toBe('removeRecord failed');
    if (snapshot.matches({ change: 'idle' })) expect(context.target).toBeNull();
    if (event?.type === 'RESET') {
      expect(context).toEqual({
        items: [],
        next: null,
        error: null,
        editing: null,
        target: null,
        problem: null,
        done: null,
        stale: false,
      });
      expect(snapshot.matches({ list: 'idle', change: 'idle' })).toBe(true);
    }
  },
};
