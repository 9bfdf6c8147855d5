import { assign, type EventObject, fromCallback, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

/** Audio the server spoke, as the app can play it (an object URL): the machine only carries it. */
export type SpokenAudio = unknown;

export interface ReadAloudContext {
  /** The voice the member chose in Profile (null: the organization's first). */
  voice: string | null;
  /** The reply being read, and its text (its markdown as plain text). */
  messageId: string | null;
  text: string;
  audio: SpokenAudio | null;
  problem: string | null;
}

export type ReadAloudEvent =
  | { type: 'READ'; messageId: string; text: string; server: boolean }
  | { type: 'STOP' }
  | { type: 'ENDED' }
  | { type: 'FAILED'; message: string }
  | { type: 'DISMISS' }
  | { type: 'CHOOSE_VOICE'; voice: string | null };

export const readAloudMachine = setup({
  types: {
    context: {} as ReadAloudContext,
    events: {} as ReadAloudEvent,
    input: {} as { voice: string | null },
  },
  actors: {
    /** POST /api/v1/audio/speech in the member's voice: the audio, ready to play. */
    fetchSpeech: fromPromise<SpokenAudio, { text: string; voice: string | null }>(async () => {
      throw new Error('fetchSpeech is provided by the app');
    }),
    /** Plays the server's audio: ENDED at its end, FAILED if it cannot; stopped when left. */
    playAudio: fromCallback<EventObject, { audio: SpokenAudio }>(() => {
      throw new Error('playAudio is provided by the app');
    }),
    /** The browser's own speech synthesis reads the text: ENDED, or FAILED without voices. */
    speak: fromCallback<EventObject, { text: string }>(() => {
      throw new Error('speak is provided by the app');
    }),
  },
  actions: {
    /** Keeps the member's voice in local storage (provided by the app). */
    storeVoice: (_, _params: { voice: string | null }) => {
      throw new Error('storeVoice is provided by the app');
    },
    assignVoice: assign((_, { voice }: { voice: string | null }) => ({ voice })),
    assignReply: assign((_, params: { messageId: string; text: string }) => ({ ...params, problem: null })),
    assignAudio: assign((_, { audio }: { audio: SpokenAudio }) => ({ audio })),
    assignProblem: assign((_, { error }: { error: unknown }) => ({ problem: messageOf(error) })),
    assignFailure: assign((_, { message }: { message: string }) => ({ problem: message })),
    clear: assign({ messageId: null, text: '', audio: null, problem: null }),
  },
  guards: {
    serverSpeaks: (_, { server }: { server: boolean }) => server,
  },
}).createMachine({
  id: 'readAloud',
  description: 'Read aloud on a reply: the organization’s speech, else the browser’s, with Stop.',
  context: ({ input }) => ({ voice: input.voice, messageId: null, text: '', audio: null, problem: null }),
  initial: 'idle',
  on: {
    CHOOSE_VOICE: {
      actions: [
        { type: 'assignVoice', params: ({ event }) => ({ voice: event.voice }) },
        { type: 'storeVoice', params: ({ event }) => ({ voice: event.voice }) },
      ],
    },
    READ: [
      {
        guard: { type: 'serverSpeaks', params: ({ event }) => ({ server: event.server }) },
        target: '.fetching',
        reenter: true,
        actions: {
          type: 'assignReply',
          params: ({ event }) => ({ messageId: event.messageId, text: event.text }),
        },
      },
      {
        target: '.speaking',
        reenter: true,
        actions: {
          type: 'assignReply',
          params: ({ event }) => ({ messageId: event.messageId, text: event.text }),
        },
      },
    ],
  },
  states: {
    idle: {
      id: 'readAloud.idle',
      description: 'Every reply offers Read aloud.',
    },
    fetching: {
      id: 'readAloud.fetching',
      description: 'The server speaks the reply; Stop gives up.',
      invoke: {
        id: 'fetchSpeech',
        src: 'fetchSpeech',
        input: ({ context }) => ({ text: context.text, voice: context.voice }),
        onDone: {
          target: 'playing',
          actions: { type: 'assignAudio', params: ({ event }) => ({ audio: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'assignProblem', params: errorParams } },
      },
      on: { STOP: { target: 'idle', actions: 'clear' } },
    },
    playing: {
      id: 'readAloud.playing',
      description: 'The server’s audio plays; the reply shows Stop.',
      invoke: { id: 'playAudio', src: 'playAudio', input: ({ context }) => ({ audio: context.audio }) },
      on: {
        STOP: { target: 'idle', actions: 'clear' },
        ENDED: { target: 'idle', actions: 'clear' },
        FAILED: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ message: event.message }) },
        },
      },
    },
    speaking: {
      id: 'readAloud.speaking',
      description: 'The browser reads the reply in its own voice; the reply shows Stop.',
      invoke: { id: 'speak', src: 'speak', input: ({ context }) => ({ text: context.text }) },
      on: {
        STOP: { target: 'idle', actions: 'clear' },
        ENDED: { target: 'idle', actions: 'clear' },
        FAILED: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ message: event.message }) },
        },
      },
    },
    failed: {
      id: 'readAloud.failed',
      description: 'Says why it cannot read aloud, beside the reply.',
      on: { DISMISS: { target: 'idle', actions: 'clear' } },
    },
  },
});
