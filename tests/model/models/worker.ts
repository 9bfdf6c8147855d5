import { workerMachine } from '../../../machines/worker';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, pending } from './shared';

export const workerModel: MachineModel = {
  name: 'worker',
  provide: (world) =>
    workerMachine.provide({
      actors: { registerWorker: pending() },
      actions: { logError: () => world.calls.push('log: worker') },
    }),
  inputs: [{ production: true }, { production: false }],
  events: [
    { type: 'STABLE' },
    { type: 'xstate.after.latestRegistration.worker.waiting' },
    done('registerWorker'),
    failed('registerWorker'),
  ],
  check: (snapshot, world) => {
    if (!snapshot.context.production) expect(snapshot.value).toBe('disabled');
    expect(world.calls.length > 0).toBe(snapshot.matches('failed'));
  },
};
