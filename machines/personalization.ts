import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';

/** The member's custom instructions and memory switch (`GET /api/v1/user/me/instructions`). */
export interface Instructions {
  text: string;
  useMemory: boolean;
}

export const maxInstructions = 3000;

export interface PersonalizationContext {
  instructions: Instructions;
  /** Why loading, saving or switching failed; `field` is `text` when the server named the text. */
  problem: { field: 'text' | null; message: string } | null;
}

export type PersonalizationEvent =
  | { type: 'RETRY' }
  | { type: 'SAVE'; text: string }
  | { type: 'SET_MEMORY'; on: boolean };

const tooLong = 'Custom instructions have 3,000 characters at most.';

export const personalizationMachine = setup({
  types: {
    context: {} as PersonalizationContext,
    events: {} as PersonalizationEvent,
  },
  actors: {
    /** The member's instructions and switch (GET /api/v1/user/me/instructions). */
    loadInstructions: fromPromise<Instructions>(async () => {
      throw new Error('loadInstructions is provided by the app');
    }),
    /** Saves a part of them (PUT /api/v1/user/me/instructions): answers them as stored. */
    saveInstructions: fromPromise<Instructions, Partial<Instructions>>(async () => {
      throw new Error('saveInstructions is provided by the app');
    }),
  },
  guards: {
    fits: ({ event }) => {
      assertEvent(event, 'SAVE');
      return event.text.length <= maxInstructions;
    },
  },
  actions: {
    assignInstructions: assign((_, { instructions }: { instructions: Instructions }) => ({
      instructions,
      problem: null,
    })),
    assignLoadError: assign((_, { error }: { error: unknown }) => ({
      problem: { field: null, message: messageOf(error) },
    })),
    assignRefusal: assign((_, { error }: { error: unknown }) => ({
      problem: formProblem(error, ['text'] as const),
    })),
    assignTooLong: assign({ problem: { field: 'text' as const, message: tooLong } }),
    clearProblem: assign({ problem: null }),
    /** The switch moves as it is clicked; a refusal moves it back. */
    showSwitch: assign(({ context }, { on }: { on: boolean }) => ({
      instructions: { ...context.instructions, useMemory: on },
      problem: null,
    })),
    revertSwitch: assign(({ context }) => ({
      instructions: { ...context.instructions, useMemory: !context.instructions.useMemory },
    })),
  },
}).createMachine({
  id: 'personalization',
  description: 'Profile → Personalization: the custom instructions and the "Use memory" switch.',
  context: { instructions: { text: '', useMemory: true }, problem: null },
  initial: 'loading',
  states: {
    loading: {
      id: 'personalization.loading',
      description: 'Fetches the instructions as the panel opens.',
      invoke: {
        id: 'loadInstructions',
        src: 'loadInstructions',
        onDone: {
          target: 'idle',
          actions: { type: 'assignInstructions', params: ({ event }) => ({ instructions: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: errorParams } },
      },
    },
    failed: {
      id: 'personalization.failed',
      description: 'They could not be loaded: the reason and Retry.',
      on: { RETRY: { target: 'loading', actions: 'clearProblem' } },
    },
    idle: {
      id: 'personalization.idle',
      description: 'The text and the switch as stored; a problem shows at the text.',
      on: {
        SAVE: [{ guard: 'fits', target: 'saving', actions: 'clearProblem' }, { actions: 'assignTooLong' }],
        SET_MEMORY: {
          target: 'switching',
          actions: { type: 'showSwitch', params: ({ event }) => ({ on: event.on }) },
        },
      },
    },
    saving: {
      id: 'personalization.saving',
      description: 'Saves the text; the server checks its length too.',
      invoke: {
        id: 'saveText',
        src: 'saveInstructions',
        input: ({ event }) => {
          assertEvent(event, 'SAVE');
          return { text: event.text };
        },
        onDone: {
          target: 'saved',
          actions: { type: 'assignInstructions', params: ({ event }) => ({ instructions: event.output }) },
        },
        onError: { target: 'idle', actions: { type: 'assignRefusal', params: errorParams } },
      },
    },
    saved: {
      id: 'personalization.saved',
      description: 'Saved, and announced; the member can change more.',
      on: {
        SAVE: [
          { guard: 'fits', target: 'saving', actions: 'clearProblem' },
          { target: 'idle', actions: 'assignTooLong' },
        ],
        SET_MEMORY: {
          target: 'switching',
          actions: { type: 'showSwitch', params: ({ event }) => ({ on: event.on }) },
        },
      },
    },
    switching: {
      id: 'personalization.switching',
      description: 'Turns the use of memory on or off; a failure leaves the switch as it was.',
      invoke: {
        id: 'saveSwitch',
        src: 'saveInstructions',
        input: ({ event }) => {
          assertEvent(event, 'SET_MEMORY');
          return { useMemory: event.on };
        },
        onDone: {
          target: 'idle',
          actions: { type: 'assignInstructions', params: ({ event }) => ({ instructions: event.output }) },
        },
        onError: {
          target: 'idle',
          actions: ['revertSwitch', { type: 'assignRefusal', params: errorParams }],
        },
      },
    },
  },
});
