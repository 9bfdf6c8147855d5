import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

/** A shared conversation as its link shows it: a snapshot, read-only. */
export interface SharedSnapshot {
  _id: string;
  title: string;
  bot: { _id: string; name: string; platform: { name: string } };
  messages: { role: 'user' | 'bot'; text: string; createdAt: string }[];
  sharedAt: string;
}

export interface SharedConversationContext {
  /** Someone is logged in here (a token is kept): Continue forks at once, else it asks to log in. */
  loggedIn: boolean;
  shareId: string | null;
  snapshot: SharedSnapshot | null;
  /** Back from the login "Continue this conversation" sent a visitor to: continue at once. */
  resume: boolean;
  error: string | null;
}

export type SharedConversationEvent =
  | { type: 'LOAD'; shareId: string; resume?: boolean }
  | { type: 'CONTINUE' };

const empty = {
  shareId: null,
  snapshot: null,
  resume: false,
  error: null,
} satisfies Omit<SharedConversationContext, 'loggedIn'>;

export const sharedConversationMachine = setup({
  types: {
    context: {} as SharedConversationContext,
    events: {} as SharedConversationEvent,
    input: {} as { loggedIn: boolean },
  },
  actors: {
    /** The snapshot (GET /api/v1/share/:id): public ones for anyone, others for members only. */
    fetchShare: fromPromise<SharedSnapshot, { shareId: string }>(async () => {
      throw new Error('fetchShare is provided by the app');
    }),
    /** Copies the snapshot into a new conversation of the viewer; answers its id. */
    continueShare: fromPromise<{ _id: string }, { shareId: string }>(async () => {
      throw new Error('continueShare is provided by the app');
    }),
  },
  guards: {
    isLoggedIn: ({ context }) => context.loggedIn,
    /** Back from the login to continue, and logged in now. */
    resumesLoggedIn: ({ context }) => context.resume && context.loggedIn,
  },
  actions: {
    /** Effects the app provides: a visitor logs in first, coming back here to continue… */
    goToLogin: () => {
      throw new Error('goToLogin is provided by the app');
    },
    /**
     * …and the new conversation opens once made; in place of the page when it came back from the
     * login to continue (Back must not continue again).
     */
    openConversation: () => {
      throw new Error('openConversation is provided by the app');
    },
    assignShare: assign(({ event }) => {
      assertEvent(event, 'LOAD');
      return { ...empty, shareId: event.shareId, resume: event.resume ?? false };
    }),
    assignSnapshot: assign((_, { snapshot }: { snapshot: SharedSnapshot }) => ({ snapshot, error: null })),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error), resume: false })),
    clearError: assign({ error: null }),
    forgetResume: assign({ resume: false }),
  },
}).createMachine({
  id: 'sharedConversation',
  description:
    'The page of a shared link (/s/:shareId): the read-only snapshot, and "Continue this conversation".',
  context: ({ input }) => ({ ...empty, loggedIn: input?.loggedIn ?? false }),
  initial: 'idle',
  on: {
    LOAD: { target: '.loading', actions: 'assignShare' },
  },
  states: {
    idle: {
      id: 'sharedConversation.idle',
      description: 'No link asked for yet; the page asks when it appears.',
    },
    loading: {
      id: 'sharedConversation.loading',
      description: 'Fetches the snapshot the link names.',
      invoke: {
        id: 'fetchShare',
        src: 'fetchShare',
        input: ({ context }) => ({ shareId: context.shareId ?? '' }),
        onDone: [
          {
            guard: 'resumesLoggedIn',
            target: 'continuing',
            actions: { type: 'assignSnapshot', params: ({ event }) => ({ snapshot: event.output }) },
          },
          {
            target: 'shown',
            actions: { type: 'assignSnapshot', params: ({ event }) => ({ snapshot: event.output }) },
          },
        ],
        onError: { target: 'missing', actions: { type: 'assignError', params: errorParams } },
      },
    },
    shown: {
      id: 'sharedConversation.shown',
      description: 'The snapshot, read-only, with "Continue this conversation".',
      on: {
        CONTINUE: [{ guard: 'isLoggedIn', target: 'continuing' }, { actions: 'goToLogin' }],
      },
    },
    continuing: {
      id: 'sharedConversation.continuing',
      description: 'Copies the snapshot into a new conversation of the viewer, then opens it.',
      entry: 'clearError',
      invoke: {
        id: 'continueShare',
        src: 'continueShare',
        input: ({ context }) => ({ shareId: context.shareId ?? '' }),
        onDone: { target: 'shown', actions: ['openConversation', 'forgetResume'] },
        onError: { target: 'shown', actions: { type: 'assignError', params: errorParams } },
      },
    },
    missing: {
      id: 'sharedConversation.missing',
      description: 'No such link here: revoked, never made, or not for this viewer.',
    },
  },
});
