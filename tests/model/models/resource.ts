import { resourceMachine } from '../../../machines/resource';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, pending } from './shared';

export const resourceModel: MachineModel = {
  name: 'resource',
  provide: () => resourceMachine.provide({ actors: { fetch: pending(), change: pending() } }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RELOAD' },
    { type: 'CHANGE', change: { kind: 'delete', id: 't1' } },
    { type: 'REPLACE', data: ['replaced'] },
    { type: 'RESET' },
    done('fetch', ['fetched']),
    failed('fetch'),
    done('change'),
    failed('change'),
  ],
  check: (snapshot, _world, event) => {
    if (event?.type === 'RESET')
      expect(snapshot.context).toEqual({ data: null, error: null, errorField: null });
    if (snapshot.matches('failed')) expect(snapshot.context.error).toBe('fetch failed');
    if (snapshot.matches('loaded')) expect(snapshot.context.data).not.toBeNull();
  },
};
