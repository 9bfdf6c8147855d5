import { fromPromise, setup } from 'xstate';

export const workerMachine = setup({
  types: {
    input: {} as { production: boolean },
    context: {} as { production: boolean },
    events: {} as { type: 'STABLE' },
  },
  actors: {
    registerWorker: fromPromise<unknown>(async () => {
      throw new Error('registerWorker is provided by the app');
    }),
  },
  guards: {
    isProduction: ({ context }) => context.production,
  },
  delays: {
    /** Seed-spec §9: up to 30000 ms after start even if the app never becomes stable. */
    latestRegistration: 30_000,
  },
  actions: {
    /** Effect the app provides: logs the failure (`event.error`). */
    logError: () => {
      throw new Error('logError is provided by the app');
    },
  },
}).createMachine({
  id: 'worker',
  description: 'The offline/update worker: production only, once the app is stable or after 30 s.',
  context: ({ input }) => ({ production: input.production }),
  initial: 'deciding',
  states: {
    deciding: {
      description: 'The worker is enabled only in production.',
      always: [{ guard: 'isProduction', target: 'waiting' }, { target: 'disabled' }],
    },
    disabled: { description: 'Not production: no worker.' },
    waiting: {
      description: 'Waits for the app to be stable, or 30 000 ms at the latest.',
      on: { STABLE: 'registering' },
      after: { latestRegistration: 'registering' },
    },
    registering: {
      description: 'Registers the worker.',
      invoke: {
        id: 'registerWorker',
        src: 'registerWorker',
        onDone: 'registered',
        onError: {
          target: 'failed',
          actions: 'logError',
        },
      },
    },
    registered: { description: 'The worker is installed.' },
    failed: { description: 'Registration failed; only logged.' },
  },
});
