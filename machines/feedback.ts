import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

export type Rating = 'up' | 'down';

/** A member's thumbs on a reply, with the reason they gave (empty when none). */
export interface ReplyFeedback {
  rating: Rating;
  reason: string;
}

/** The reply the thumbs are on, and what the member gave it before (null: nothing). */
export interface FeedbackInput {
  topicId: string;
  messageId: string;
  feedback: ReplyFeedback | null;
}

export interface FeedbackContext {
  topicId: string;
  messageId: string;
  /** As the server keeps it. */
  saved: ReplyFeedback | null;
  /** The thumb shown pressed: the one being saved, else the saved one. */
  rating: Rating | null;
  error: string | null;
}

export type FeedbackEvent =
  | { type: 'RATE'; rating: Rating }
  | { type: 'SEND'; reason: string }
  | { type: 'SKIP' };

/** What a save sends: the rating (null takes it back) and, with the reason form, the reason. */
export interface FeedbackSave {
  topicId: string;
  messageId: string;
  rating: Rating | null;
  reason?: string;
}

export const feedbackMachine = setup({
  types: {
    context: {} as FeedbackContext,
    events: {} as FeedbackEvent,
    input: {} as FeedbackInput,
  },
  actors: {
    /** Stores the thumbs (PUT …/message/:messageId/feedback); answers what the server keeps. */
    saveFeedback: fromPromise<ReplyFeedback | null, FeedbackSave>(async () => {
      throw new Error('saveFeedback is provided by the app');
    }),
  },
  guards: {
    /** The save gave a thumb (rather than took it back): a reason may follow. */
    isRated: ({ context }) => context.rating !== null,
  },
  actions: {
    /** The thumb pressed is given; pressed again, it is taken back. */
    chooseRating: assign({
      rating: ({ context, event }) => {
        assertEvent(event, 'RATE');
        return event.rating === context.rating ? null : event.rating;
      },
      error: null,
    }),
    assignSaved: assign((_, { saved }: { saved: ReplyFeedback | null }) => ({
      saved,
      rating: saved?.rating ?? null,
    })),
    /** A save that failed leaves the thumbs as the server keeps them. */
    restoreRating: assign({ rating: ({ context }) => context.saved?.rating ?? null }),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'feedback',
  description: "A reply's thumbs up and down, then an optional reason; pressed again, a thumb is taken back.",
  context: ({ input }) => ({
    topicId: input.topicId,
    messageId: input.messageId,
    saved: input.feedback,
    rating: input.feedback?.rating ?? null,
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      id: 'feedback.idle',
      description: 'Shows the thumbs, the one given pressed; a failed save says why.',
      on: { RATE: { target: 'rating', actions: 'chooseRating' } },
    },
    rating: {
      id: 'feedback.rating',
      description: 'Saves the thumb given, or takes it back; the thumb shows pressed meanwhile.',
      invoke: {
        id: 'saveRating',
        src: 'saveFeedback',
        input: ({ context }) => ({
          topicId: context.topicId,
          messageId: context.messageId,
          rating: context.rating,
        }),
        onDone: [
          {
            guard: 'isRated',
            target: 'askingReason',
            actions: { type: 'assignSaved', params: ({ event }) => ({ saved: event.output }) },
          },
          {
            target: 'idle',
            actions: { type: 'assignSaved', params: ({ event }) => ({ saved: event.output }) },
          },
        ],
        onError: { target: 'idle', actions: ['restoreRating', { type: 'assignError', params: errorParams }] },
      },
    },
    askingReason: {
      id: 'feedback.askingReason',
      description: 'The reason form (optional): Send, or Skip (Escape) keeps the thumb without one.',
      on: {
        SEND: { target: 'sendingReason', actions: 'clearError' },
        SKIP: { target: 'idle', actions: 'clearError' },
      },
    },
    sendingReason: {
      id: 'feedback.sendingReason',
      description: 'Saves the reason with the thumb; the form waits, and stays if it fails.',
      invoke: {
        id: 'saveReason',
        src: 'saveFeedback',
        input: ({ context, event }) => {
          assertEvent(event, 'SEND');
          return {
            topicId: context.topicId,
            messageId: context.messageId,
            rating: context.rating,
            reason: event.reason,
          };
        },
        onDone: {
          target: 'idle',
          actions: { type: 'assignSaved', params: ({ event }) => ({ saved: event.output }) },
        },
        onError: { target: 'askingReason', actions: { type: 'assignError', params: errorParams } },
      },
    },
  },
});
