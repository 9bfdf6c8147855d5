import { assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

/** The memory a reply's `remember` step saved: its result, `{"_id":"…","text":"…"}`. */
export interface SavedMemory {
  _id: string;
  text: string;
}

/** The memory a `remember` step's result names; null when it names none (the call failed). */
export function savedMemoryOf(result: string | null | undefined): SavedMemory | null {
  try {
    const value = JSON.parse(result ?? '');
    return typeof value?._id === 'string' && typeof value?.text === 'string'
      ? { _id: value._id, text: value.text }
      : null;
  } catch {
    return null;
  }
}

export interface SavedMemoryContext {
  memory: SavedMemory;
  error: string | null;
}

export type SavedMemoryEvent = { type: 'UNDO' };

export const savedMemoryMachine = setup({
  types: {
    context: {} as SavedMemoryContext,
    events: {} as SavedMemoryEvent,
    input: {} as SavedMemory,
  },
  actors: {
    /** Deletes the memory the model saved (DELETE /api/v1/memory/:id). */
    forgetMemory: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('forgetMemory is provided by the app');
    }),
  },
  actions: {
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'savedMemory',
  description: 'A reply\'s "Saved to memory" with Undo, which deletes what the model saved.',
  context: ({ input }) => ({ memory: input, error: null }),
  initial: 'saved',
  states: {
    saved: {
      id: 'savedMemory.saved',
      description: 'Says what was saved, with Undo; a failed Undo says why.',
      on: { UNDO: { target: 'undoing', actions: 'clearError' } },
    },
    undoing: {
      id: 'savedMemory.undoing',
      description: 'Deletes the memory.',
      invoke: {
        id: 'forgetMemory',
        src: 'forgetMemory',
        input: ({ context }) => ({ id: context.memory._id }),
        onDone: 'removed',
        onError: { target: 'saved', actions: { type: 'assignError', params: errorParams } },
      },
    },
    removed: {
      id: 'savedMemory.removed',
      description: 'Says the memory was removed.',
      type: 'final',
    },
  },
});
