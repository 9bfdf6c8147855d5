import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

/** Who may open a shared conversation's link: members of the organization, or anyone. */
export type ShareAudience = 'organization' | 'public';

/** A conversation's share as its owner sees it: the link and who may open it. */
export interface ShareLink {
  _id: string;
  /** `/s/<id>`, on the organization's host. */
  url: string;
  audience: ShareAudience;
  sharedAt: string;
}

/** The conversation the dialog is about. */
export interface SharedTopic {
  _id: string;
  title: string;
}

export interface ShareContext {
  topic: SharedTopic | null;
  /** The conversation's share, once made (or found); null while it has none. */
  share: ShareLink | null;
  audience: ShareAudience;
  error: string | null;
}

export type ShareEvent =
  | { type: 'OPEN'; topic: SharedTopic }
  | { type: 'CHOOSE'; audience: ShareAudience }
  | { type: 'SHARE' }
  | { type: 'REVOKE' }
  | { type: 'CLOSE' }
  | { type: 'RESET' };

const closed = { topic: null, share: null, audience: 'organization', error: null } satisfies ShareContext;

export const shareMachine = setup({
  types: {
    context: {} as ShareContext,
    events: {} as ShareEvent,
  },
  actors: {
    /** The conversation's share if it has one (GET /api/v1/share?topic=), else null. */
    findShare: fromPromise<ShareLink | null, { topicId: string }>(async () => {
      throw new Error('findShare is provided by the app');
    }),
    /** Shares the branch on screen (POST /api/v1/topic/:id/share); sharing again keeps the link. */
    shareTopic: fromPromise<ShareLink, { topicId: string; audience: ShareAudience }>(async () => {
      throw new Error('shareTopic is provided by the app');
    }),
    /** Revokes the link (DELETE /api/v1/share/:id): it answers 404 from then on. */
    revokeShare: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('revokeShare is provided by the app');
    }),
  },
  guards: {
    isShared: ({ context }) => context.share !== null,
  },
  actions: {
    assignTopic: assign({
      topic: ({ event }) => {
        assertEvent(event, 'OPEN');
        return event.topic;
      },
      share: null,
      audience: 'organization',
      error: null,
    }),
    /** The link found or made, and the audience it has. */
    assignShare: assign((_, { share }: { share: ShareLink | null }) => ({
      share,
      audience: share?.audience ?? 'organization',
      error: null,
    })),
    assignAudience: assign({
      audience: ({ event }) => {
        assertEvent(event, 'CHOOSE');
        return event.audience;
      },
    }),
    clearShare: assign({ share: null, error: null }),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    clearError: assign({ error: null }),
    forget: assign(closed),
  },
}).createMachine({
  id: 'share',
  description:
    'The Share dialog of a conversation: who may open the link, the link to copy, and revoking it.',
  context: closed,
  initial: 'closed',
  on: {
    CLOSE: { target: '.closed', actions: 'forget' },
    RESET: { target: '.closed', actions: 'forget' },
  },
  states: {
    closed: {
      id: 'share.closed',
      description: 'No dialog; a conversation menu’s Share opens it.',
      on: { OPEN: { target: 'loading', actions: 'assignTopic' } },
    },
    loading: {
      id: 'share.loading',
      description: 'Looks for the link the conversation already has.',
      invoke: {
        id: 'findShare',
        src: 'findShare',
        input: ({ context }) => ({ topicId: context.topic?._id ?? '' }),
        onDone: {
          target: 'ready',
          actions: { type: 'assignShare', params: ({ event }) => ({ share: event.output }) },
        },
        onError: { target: 'ready', actions: { type: 'assignError', params: errorParams } },
      },
    },
    ready: {
      id: 'share.ready',
      description:
        'Shows the audience choice and, once shared, the link with Copy and Revoke; Share makes or updates the link.',
      on: {
        CHOOSE: { actions: 'assignAudience' },
        SHARE: 'sharing',
        REVOKE: { guard: 'isShared', target: 'revoking' },
      },
    },
    sharing: {
      id: 'share.sharing',
      description: 'Snapshots the branch on screen for the audience chosen; the link stays the same.',
      entry: 'clearError',
      invoke: {
        id: 'shareTopic',
        src: 'shareTopic',
        input: ({ context }) => ({ topicId: context.topic?._id ?? '', audience: context.audience }),
        onDone: {
          target: 'ready',
          actions: { type: 'assignShare', params: ({ event }) => ({ share: event.output }) },
        },
        onError: { target: 'ready', actions: { type: 'assignError', params: errorParams } },
      },
    },
    revoking: {
      id: 'share.revoking',
      description: 'Revokes the link: nobody can open it any more.',
      entry: 'clearError',
      invoke: {
        id: 'revokeShare',
        src: 'revokeShare',
        input: ({ context }) => ({ id: context.share?._id ?? '' }),
        onDone: { target: 'ready', actions: 'clearShare' },
        onError: { target: 'ready', actions: { type: 'assignError', params: errorParams } },
      },
    },
  },
});
