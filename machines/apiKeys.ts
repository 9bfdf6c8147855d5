import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';

/** A personal API key as its owner lists it (`GET /api/v1/user/me/key`): never the key itself. */
export interface ApiKey {
  _id: string;
  name: string;
  createdAt: string;
  /** The end of the chosen day (UTC), or null for a key that does not expire. */
  expiresAt: string | null;
  lastUsedAt: string | null;
  /** The key's last four characters, so its owner can tell keys apart. */
  last4: string;
}

/** A key just made: its record, and the key itself, shown this once. */
export interface CreatedKey extends ApiKey {
  key: string;
}

/** What listing answers: the member's keys, or the server's sentence saying API access is off. */
export type KeyList = { keys: ApiKey[] } | { turnedOff: string };

/** What the member asks for: a name and an optional day (`YYYY-MM-DD`, '' for none). */
export interface KeyRequest {
  name: string;
  expiresAt: string;
}

export type KeyField = keyof KeyRequest;
export interface KeyProblem {
  /** The field it is about, or null for the form as a whole. */
  field: KeyField | null;
  message: string;
}

export const maxKeyName = 80;

/**
 * Every problem of the form the member can fix before it is sent. `today` is the member's day
 * (`YYYY-MM-DD`): a key may expire at the end of today at the earliest.
 */
export function keyProblems(request: KeyRequest, today: string): KeyProblem[] {
  const problems: KeyProblem[] = [];
  const name = request.name.trim();
  if (!name) problems.push({ field: 'name', message: 'Enter a name for the key.' });
  else if (name.length > maxKeyName)
    problems.push({ field: 'name', message: 'A key name has 80 characters at most.' });
  if (request.expiresAt && !/^\d{4}-\d{2}-\d{2}$/.test(request.expiresAt))
    problems.push({ field: 'expiresAt', message: 'Enter a date, or leave it empty.' });
  else if (request.expiresAt && request.expiresAt < today)
    problems.push({ field: 'expiresAt', message: 'Choose an expiry date in the future.' });
  return problems;
}

export interface ApiKeysContext {
  keys: ApiKey[];
  /** The form as last submitted, what `createKey` sends. */
  request: KeyRequest;
  problems: KeyProblem[];
  /** The key just made, shown once until the member dismisses it. */
  newKey: string | null;
  /** The key the member asked to revoke. */
  revoking: ApiKey | null;
  /** Why the list could not be loaded, or why revoking failed. */
  error: string | null;
  /** The server's sentence when the organization turned API access off. */
  turnedOff: string | null;
}

export type ApiKeysEvent =
  | { type: 'RETRY' }
  /** `today` is the member's day, `YYYY-MM-DD`, for checking the expiry date. */
  | { type: 'CREATE'; name: string; expiresAt: string; today: string }
  | { type: 'DISMISS' }
  | { type: 'ASK_REVOKE'; id: string }
  | { type: 'CANCEL_REVOKE' }
  | { type: 'REVOKE' };

const requestOf = (event: ApiKeysEvent): KeyRequest => {
  assertEvent(event, 'CREATE');
  return { name: event.name.trim(), expiresAt: event.expiresAt };
};

export const apiKeysMachine = setup({
  types: {
    context: {} as ApiKeysContext,
    events: {} as ApiKeysEvent,
  },
  actors: {
    /** The member's keys (GET /api/v1/user/me/key); `turnedOff` when the organization refuses (403). */
    listKeys: fromPromise<KeyList>(async () => {
      throw new Error('listKeys is provided by the app');
    }),
    /** Makes a key (POST /api/v1/user/me/key, the name RSA-encrypted): its record and the key, once. */
    createKey: fromPromise<CreatedKey, KeyRequest>(async () => {
      throw new Error('createKey is provided by the app');
    }),
    /** Revokes a key (DELETE /api/v1/user/me/key/:id): it stops working at once. */
    revokeKey: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('revokeKey is provided by the app');
    }),
  },
  guards: {
    isOff: (_, { list }: { list: KeyList }) => 'turnedOff' in list,
    isValid: ({ event }) => {
      assertEvent(event, 'CREATE');
      return keyProblems(event, event.today).length === 0;
    },
    isListed: ({ context, event }) => {
      assertEvent(event, 'ASK_REVOKE');
      return context.keys.some((key) => key._id === event.id);
    },
  },
  actions: {
    assignKeys: assign((_, { list }: { list: KeyList }) => ({
      keys: 'keys' in list ? list.keys : [],
      error: null,
    })),
    assignOff: assign((_, { list }: { list: KeyList }) => ({
      keys: [],
      turnedOff: 'turnedOff' in list ? list.turnedOff : null,
      error: null,
    })),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    clearError: assign({ error: null }),
    assignRequest: assign({ request: ({ event }) => requestOf(event), problems: [] }),
    assignProblems: assign({
      problems: ({ event }) => {
        assertEvent(event, 'CREATE');
        return keyProblems(event, event.today);
      },
    }),
    assignCreated: assign(({ context }, { created }: { created: CreatedKey }) => {
      const { key, ...record } = created;
      return { keys: [record, ...context.keys], newKey: key, request: { name: '', expiresAt: '' } };
    }),
    assignRefusal: assign((_, { error }: { error: unknown }) => ({
      problems: [formProblem(error, ['name', 'expiresAt'] as const)],
    })),
    forgetNewKey: assign({ newKey: null }),
    assignAsked: assign({
      revoking: ({ context, event }) => {
        assertEvent(event, 'ASK_REVOKE');
        return context.keys.find((key) => key._id === event.id) ?? null;
      },
      error: null,
    }),
    forgetAsked: assign({ revoking: null, error: null }),
    dropRevoked: assign(({ context }) => ({
      keys: context.keys.filter((key) => key._id !== context.revoking?._id),
      revoking: null,
      error: null,
    })),
  },
}).createMachine({
  id: 'apiKeys',
  description:
    "The Profile panel's API keys: the member's keys, a form to make one (shown once), and revoking one.",
  context: {
    keys: [],
    request: { name: '', expiresAt: '' },
    problems: [],
    newKey: null,
    revoking: null,
    error: null,
    turnedOff: null,
  },
  initial: 'loading',
  states: {
    loading: {
      id: 'apiKeys.loading',
      description: 'Fetches the member’s keys as the panel opens.',
      invoke: {
        id: 'listKeys',
        src: 'listKeys',
        onDone: [
          {
            guard: { type: 'isOff', params: ({ event }) => ({ list: event.output }) },
            target: 'turnedOff',
            actions: { type: 'assignOff', params: ({ event }) => ({ list: event.output }) },
          },
          {
            target: 'idle',
            actions: { type: 'assignKeys', params: ({ event }) => ({ list: event.output }) },
          },
        ],
        onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
      },
    },
    failed: {
      id: 'apiKeys.failed',
      description: 'The keys could not be loaded: the reason and Retry.',
      on: { RETRY: { target: 'loading', actions: 'clearError' } },
    },
    turnedOff: {
      id: 'apiKeys.turnedOff',
      description: 'The organization turned API access off: the section says so, with no form.',
    },
    idle: {
      id: 'apiKeys.idle',
      description:
        'The keys listed with Revoke on each, and the form to make one; problems show at the fields.',
      tags: 'listed',
      on: {
        CREATE: [
          { guard: 'isValid', target: 'creating', actions: 'assignRequest' },
          { actions: 'assignProblems' },
        ],
        ASK_REVOKE: { guard: 'isListed', target: 'confirming', actions: 'assignAsked' },
      },
    },
    creating: {
      id: 'apiKeys.creating',
      description: 'Makes the key; the server checks the name and the date too.',
      tags: 'listed',
      invoke: {
        id: 'createKey',
        src: 'createKey',
        input: ({ context }) => context.request,
        onDone: {
          target: 'showingKey',
          actions: { type: 'assignCreated', params: ({ event }) => ({ created: event.output }) },
        },
        onError: { target: 'idle', actions: { type: 'assignRefusal', params: errorParams } },
      },
    },
    showingKey: {
      id: 'apiKeys.showingKey',
      description: 'The new key in a dialog, with Copy, once: it is never shown again.',
      tags: 'listed',
      on: { DISMISS: { target: 'idle', actions: 'forgetNewKey' } },
    },
    confirming: {
      id: 'apiKeys.confirming',
      description: 'Asks before revoking the key: programs using it stop working.',
      tags: 'listed',
      on: {
        CANCEL_REVOKE: { target: 'idle', actions: 'forgetAsked' },
        REVOKE: { target: 'revoking', actions: 'clearError' },
      },
    },
    revoking: {
      id: 'apiKeys.revoking',
      description: 'Revokes the key; a failure is told in the dialog, which stays open.',
      tags: 'listed',
      invoke: {
        id: 'revokeKey',
        src: 'revokeKey',
        input: ({ context }) => ({ id: context.revoking?._id ?? '' }),
        onDone: { target: 'idle', actions: 'dropRevoked' },
        onError: { target: 'confirming', actions: { type: 'assignError', params: errorParams } },
      },
    },
  },
});
