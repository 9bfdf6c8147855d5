import { assign, emit, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

/** The longest recording, in seconds (the server transcribes ten minutes at most). */
export const maxRecordingSeconds = 600;

/** A recording as the browser made it (a Blob): the machine only carries it. */
export type RecordedAudio = unknown;

export interface VoiceInputContext {
  /** The member's setting "Send voice messages at once": the transcript is sent, not put in the box. */
  sendAtOnce: boolean;
  /** How long the recording runs so far. */
  seconds: number;
  audio: RecordedAudio | null;
  problem: string | null;
}

export type VoiceInputEvent =
  | { type: 'RECORD' }
  | { type: 'STOP' }
  | { type: 'CANCEL' }
  | { type: 'DISMISS' }
  | { type: 'TICK'; seconds: number }
  | { type: 'RECORDED'; audio: RecordedAudio }
  | { type: 'SET_SEND_AT_ONCE'; on: boolean };

/** What the composer hears: the transcript, for the message box or to send at once. */
export type VoiceInputEmitted = { type: 'transcribed'; text: string; send: boolean };

export const voiceInputMachine = setup({
  types: {
    context: {} as VoiceInputContext,
    events: {} as VoiceInputEvent,
    emitted: {} as VoiceInputEmitted,
    input: {} as { sendAtOnce: boolean },
  },
  actors: {
    /** Asks for the microphone (getUserMedia): its stream, or a sentence saying why not (denied, none). */
    openMicrophone: fromPromise<unknown>(async () => {
      throw new Error('openMicrophone is provided by the app');
    }),
    /**
     * Records the stream (MediaRecorder): TICK every second, RECORDED with the audio once stopped
     * (STOP, or the longest recording reached); the microphone is released when it ends.
     */
    record: fromCallback<{ type: 'STOP' }, { stream: unknown }>(() => {
      throw new Error('record is provided by the app');
    }),
    /** Sends the audio to POST /api/v1/audio/transcriptions: the text heard. */
    transcribe: fromPromise<string, { audio: RecordedAudio }>(async () => {
      throw new Error('transcribe is provided by the app');
    }),
  },
  actions: {
    /** Keeps the member's setting in local storage (provided by the app). */
    storeSendAtOnce: (_, _params: { on: boolean }) => {
      throw new Error('storeSendAtOnce is provided by the app');
    },
    assignSendAtOnce: assign((_, { on }: { on: boolean }) => ({ sendAtOnce: on })),
    startClock: assign({ seconds: 0, problem: null, audio: null }),
    assignSeconds: assign((_, { seconds }: { seconds: number }) => ({ seconds })),
    assignAudio: assign((_, { audio }: { audio: RecordedAudio }) => ({ audio })),
    stopRecorder: sendTo('record', { type: 'STOP' }),
    assignProblem: assign((_, { error }: { error: unknown }) => ({ problem: messageOf(error), audio: null })),
    assignNothingHeard: assign({
      problem: 'Nothing was heard. Try again, closer to the microphone.',
      audio: null,
    }),
    clear: assign({ problem: null, audio: null }),
    emitTranscript: emit((_, { text, send }: { text: string; send: boolean }) => ({
      type: 'transcribed' as const,
      text,
      send,
    })),
  },
  guards: {
    heardNothing: (_, { text }: { text: string }) => !text.trim(),
  },
}).createMachine({
  id: 'voiceInput',
  description: 'The composer’s microphone: records, shows the time and Stop, then gives the transcript.',
  context: ({ input }) => ({ sendAtOnce: input.sendAtOnce, seconds: 0, audio: null, problem: null }),
  initial: 'idle',
  on: {
    SET_SEND_AT_ONCE: {
      actions: [
        { type: 'assignSendAtOnce', params: ({ event }) => ({ on: event.on }) },
        { type: 'storeSendAtOnce', params: ({ event }) => ({ on: event.on }) },
      ],
    },
  },
  states: {
    idle: {
      id: 'voiceInput.idle',
      description: 'The microphone button, ready.',
      on: { RECORD: 'opening' },
    },
    opening: {
      id: 'voiceInput.opening',
      description: 'Asks the browser for the microphone.',
      entry: 'startClock',
      invoke: {
        id: 'openMicrophone',
        src: 'openMicrophone',
        onDone: 'capturing',
        onError: { target: 'failed', actions: { type: 'assignProblem', params: errorParams } },
      },
    },
    capturing: {
      id: 'voiceInput.capturing',
      description: 'Records until Stop (or ten minutes); Cancel throws the recording away.',
      invoke: {
        id: 'record',
        src: 'record',
        input: ({ event }) => ({ stream: (event as { output?: unknown }).output }),
      },
      on: {
        TICK: { actions: { type: 'assignSeconds', params: ({ event }) => ({ seconds: event.seconds }) } },
        RECORDED: {
          target: 'transcribing',
          actions: { type: 'assignAudio', params: ({ event }) => ({ audio: event.audio }) },
        },
        CANCEL: { target: 'idle', actions: 'clear' },
      },
      initial: 'recording',
      states: {
        recording: {
          id: 'voiceInput.capturing.recording',
          description: 'The time runs beside Stop.',
          on: { STOP: { target: 'stopping', actions: 'stopRecorder' } },
        },
        stopping: {
          id: 'voiceInput.capturing.stopping',
          description: 'The recorder hands over the last of the audio.',
        },
      },
    },
    transcribing: {
      id: 'voiceInput.transcribing',
      description: 'The server turns the recording into text; Cancel drops it.',
      invoke: {
        id: 'transcribe',
        src: 'transcribe',
        input: ({ context }) => ({ audio: context.audio }),
        onDone: [
          {
            guard: { type: 'heardNothing', params: ({ event }) => ({ text: event.output }) },
            target: 'failed',
            actions: 'assignNothingHeard',
          },
          {
            target: 'idle',
            actions: [
              'clear',
              {
                type: 'emitTranscript',
                params: ({ context, event }) => ({ text: event.output.trim(), send: context.sendAtOnce }),
              },
            ],
          },
        ],
        onError: { target: 'failed', actions: { type: 'assignProblem', params: errorParams } },
      },
      on: { CANCEL: { target: 'idle', actions: 'clear' } },
    },
    failed: {
      id: 'voiceInput.failed',
      description: 'Says why (no permission, no microphone, the server refused) beside the button.',
      on: { RECORD: 'opening', DISMISS: { target: 'idle', actions: 'clear' } },
    },
  },
});
