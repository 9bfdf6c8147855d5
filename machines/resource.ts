import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, fieldOf, messageOf } from './errors';

/** The records the home area keeps behind this machine: the balance with its charges… */
export interface TransactionRecord {
  _id: string;
  amount: number;
  description: string;
  createdAt: string;
}
export interface BillingRecord {
  balance: number;
  currency: string;
  transactions: TransactionRecord[];
}
/** …and the notifications. */
export interface NotificationRecord {
  _id: string;
  title: string;
  body: string;
  read: boolean;
  createdAt: string;
}

export interface ResourceContext<Data> {
  /** null until the first fetch answers, and again once forgotten. */
  data: Data | null;
  error: string | null;
  /** The form field the server named when it refused a change, shown at that field; else null. */
  errorField: string | null;
}

export type ResourceEvent<Data, Change> =
  | { type: 'LOAD' }
  | { type: 'RELOAD' }
  | { type: 'CHANGE'; change: Change }
  | { type: 'REPLACE'; data: Data }
  | { type: 'RESET' };

/**
 * A piece of server data the UI shows and changes: the balance, the notifications, a provider's
 * models. Loaded on demand, reloaded after each change the user makes, with errors to retry. One
 * machine for every such piece: `Data` is what the fetch answers, `Change` what a CHANGE asks for
 * (never: it cannot be changed here), so each screen reads its own record type without a cast.
 */
export function createResourceMachine<Data, Change = never>() {
  return setup({
    types: {
      context: {} as ResourceContext<Data>,
      events: {} as ResourceEvent<Data, Change>,
    },
    actors: {
      fetch: fromPromise<Data>(async () => {
        throw new Error('fetch is provided by the app');
      }),
      /** Applies one change the user asked for (rename, delete, mark read…) on the server. */
      change: fromPromise<unknown, { change: Change }>(async () => {
        throw new Error('change is provided by the app');
      }),
    },
    guards: {
      /** Something is on screen to change: an earlier copy, while a newer one is fetched. */
      hasData: ({ context }) => context.data !== null,
    },
    actions: {
      assignData: assign((_, { data }: { data: Data }) => ({ data, error: null, errorField: null })),
      replaceData: assign({
        data: ({ event }) => {
          assertEvent(event, 'REPLACE');
          return event.data;
        },
        error: null,
        errorField: null,
      }),
      clearData: assign({ data: null, error: null, errorField: null }),
      assignError: assign((_, { error }: { error: unknown }) => ({
        error: messageOf(error),
        errorField: fieldOf(error),
      })),
    },
  }).createMachine({
    id: 'resource',
    description: 'Server data shown on screen: load, reload, change, retry; forgotten on logout.',
    context: { data: null, error: null, errorField: null },
    initial: 'idle',
    on: {
      RESET: { target: '.idle', actions: 'clearData' },
    },
    states: {
      idle: { description: 'Not asked for yet.', on: { LOAD: 'loading' } },
      loading: {
        description: 'Fetches the data.',
        // A change asked for while a newer copy is fetched (the old one still on screen) is not lost:
        // it is sent, and the fetch that follows it answers for both.
        on: { CHANGE: { guard: 'hasData', target: 'changing' } },
        invoke: {
          id: 'fetch',
          src: 'fetch',
          onDone: {
            target: 'loaded',
            actions: { type: 'assignData', params: ({ event }) => ({ data: event.output }) },
          },
          onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
        },
      },
      loaded: {
        description: 'Shown; a newer copy can be fetched or a change made.',
        on: {
          RELOAD: 'loading',
          CHANGE: 'changing',
          REPLACE: { actions: 'replaceData' },
        },
      },
      changing: {
        description: 'Sends the change, then fetches the result.',
        invoke: {
          id: 'change',
          src: 'change',
          input: ({ event }) => {
            assertEvent(event, 'CHANGE');
            return { change: event.change };
          },
          onDone: 'loading',
          onError: { target: 'loaded', actions: { type: 'assignError', params: errorParams } },
        },
      },
      failed: {
        description: 'Could not load; the user can retry.',
        on: { LOAD: 'loading', RELOAD: 'loading' },
      },
    },
  });
}

/** The machine with any data and any change: its diagram, and the paths its model test walks. */
export const resourceMachine = createResourceMachine<unknown, unknown>();
