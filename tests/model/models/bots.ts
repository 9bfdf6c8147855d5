import { botsMachine } from '../../../machines/bots';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, pending } from './shared';

const bots = [
  { _id: 'b1', name: 'ELIZA', active: true, categories: [{ _id: 'c1' }], platform: { name: 'builtin' } },
  { _id: 'b2', name: 'Oracle', active: false, categories: [{ _id: 'c1' }], platform: { name: 'builtin' } },
];

export const botsModel: MachineModel = {
  name: 'bots',
  provide: () => botsMachine.provide({ actors: { fetchBots: pending() } }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'RELOAD' },
    { type: 'FILTER', categoryIds: ['c1'] },
    { type: 'FILTER', categoryIds: [] },
    done('fetchBots', bots),
    failed('fetchBots'),
  ],
  check: (snapshot, _world, event) => {
    // Loaded once and reused: only a change of the member's own bots (RELOAD) loads it again.
    if (snapshot.matches('loaded')) {
      expect(snapshot.context.bots).toEqual(bots);
      expect(snapshot.can({ type: 'LOAD' })).toBe(false);
    }
    if (event?.type === 'RELOAD') expect(snapshot.matches('loaded')).toBe(false);
    if (snapshot.matches('failed')) expect(snapshot.context.error).toBe('fetchBots failed');
  },
};
