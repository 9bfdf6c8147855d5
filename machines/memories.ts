import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';

/** A fact the member's model bots are given (`GET /api/v1/memory`). */
export interface Memory {
  _id: string;
  text: string;
  /** The project it belongs to (used only there), or null: used everywhere. */
  project: string | null;
  createdAt: string;
  /** Who saved it: the member, or a model bot through the `remember` tool. */
  source: 'member' | 'model';
}

/** A project a memory can belong to, as the project picker lists it. */
export interface ProjectChoice {
  _id: string;
  name: string;
}

/** What the list shows: the memories, and the member's projects to name theirs and to pick from. */
export interface MemoryList {
  memories: Memory[];
  projects: ProjectChoice[];
}

export const maxMemory = 1000;

export interface MemoriesContext {
  memories: Memory[];
  projects: ProjectChoice[];
  /** The memory being edited in the dialog. */
  editing: Memory | null;
  /** The text last sent, adding or editing; with the project when adding. */
  draft: { text: string; project: string | null };
  /** Why something failed: `field` `text` is at the form's text, null about the list. */
  problem: { field: 'text' | null; message: string } | null;
  /** Bumped by each memory added: the form empties itself when it changes. */
  added: number;
}

export type MemoriesEvent =
  | { type: 'RETRY' }
  | { type: 'ADD'; text: string; project: string | null }
  | { type: 'EDIT'; id: string }
  | { type: 'CANCEL' }
  | { type: 'SAVE'; text: string }
  | { type: 'DELETE'; id: string }
  | { type: 'ASK_FORGET' }
  | { type: 'FORGET' };

const textOf = (event: MemoriesEvent) => {
  assertEvent(event, ['ADD', 'SAVE']);
  return event.text.trim();
};

export const memoriesMachine = setup({
  types: {
    context: {} as MemoriesContext,
    events: {} as MemoriesEvent,
  },
  actors: {
    /** The member's memories (GET /api/v1/memory) and projects (GET /api/v1/project). */
    listMemories: fromPromise<MemoryList>(async () => {
      throw new Error('listMemories is provided by the app');
    }),
    /** Adds one (POST /api/v1/memory); 403 MEMORY_OFF while the organization has memory off. */
    addMemory: fromPromise<Memory, { text: string; project: string | null }>(async () => {
      throw new Error('addMemory is provided by the app');
    }),
    /** Changes one's text (PATCH /api/v1/memory/:id). */
    editMemory: fromPromise<Memory, { id: string; text: string }>(async () => {
      throw new Error('editMemory is provided by the app');
    }),
    /** Deletes one (DELETE /api/v1/memory/:id); answers its id. */
    deleteMemory: fromPromise<string, { id: string }>(async () => {
      throw new Error('deleteMemory is provided by the app');
    }),
    /** Deletes every memory of the member (DELETE /api/v1/memory). */
    forgetAll: fromPromise<unknown>(async () => {
      throw new Error('forgetAll is provided by the app');
    }),
  },
  guards: {
    hasText: ({ event }) => {
      const text = textOf(event);
      return text !== '' && text.length <= maxMemory;
    },
    isListed: ({ context, event }) => {
      assertEvent(event, ['EDIT', 'DELETE']);
      return context.memories.some((memory) => memory._id === event.id);
    },
  },
  actions: {
    assignList: assign((_, { list }: { list: MemoryList }) => ({
      memories: list.memories,
      projects: list.projects,
      problem: null,
    })),
    assignError: assign((_, { error }: { error: unknown }) => ({
      problem: { field: null, message: messageOf(error) },
    })),
    assignRefusal: assign((_, { error }: { error: unknown }) => ({
      problem: formProblem(error, ['text'] as const),
    })),
    assignNoText: assign({
      problem: ({ event }) => ({
        field: 'text' as const,
        message: textOf(event) ? 'A memory has 1,000 characters at most.' : 'Write the memory first.',
      }),
    }),
    clearProblem: assign({ problem: null }),
    assignDraft: assign({
      draft: ({ event }) => {
        assertEvent(event, ['ADD', 'SAVE']);
        return { text: textOf(event), project: event.type === 'ADD' ? event.project : null };
      },
      problem: null,
    }),
    assignAdded: assign(({ context }, { memory }: { memory: Memory }) => ({
      memories: [memory, ...context.memories],
      added: context.added + 1,
    })),
    assignEditing: assign({
      editing: ({ context, event }) => {
        assertEvent(event, 'EDIT');
        return context.memories.find((memory) => memory._id === event.id) ?? null;
      },
      problem: null,
    }),
    closeEditor: assign({ editing: null, problem: null }),
    assignEdited: assign(({ context }, { memory }: { memory: Memory }) => ({
      memories: context.memories.map((item) => (item._id === memory._id ? memory : item)),
      editing: null,
    })),
    dropOne: assign(({ context }, { id }: { id: string }) => ({
      memories: context.memories.filter((memory) => memory._id !== id),
    })),
    dropAll: assign({ memories: [] }),
  },
}).createMachine({
  id: 'memories',
  description:
    "The Profile panel's memory: the member's memories, adding, editing and deleting one, forgetting all.",
  context: {
    memories: [],
    projects: [],
    editing: null,
    draft: { text: '', project: null },
    problem: null,
    added: 0,
  },
  initial: 'loading',
  states: {
    loading: {
      id: 'memories.loading',
      description: 'Fetches the memories as the panel opens.',
      invoke: {
        id: 'listMemories',
        src: 'listMemories',
        onDone: {
          target: 'idle',
          actions: { type: 'assignList', params: ({ event }) => ({ list: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
      },
    },
    failed: {
      id: 'memories.failed',
      description: 'They could not be loaded: the reason and Retry.',
      on: { RETRY: { target: 'loading', actions: 'clearProblem' } },
    },
    idle: {
      id: 'memories.idle',
      description: 'The list: Edit, Delete, Add, Forget all.',
      tags: 'listed',
      on: {
        ADD: [{ guard: 'hasText', target: 'adding', actions: 'assignDraft' }, { actions: 'assignNoText' }],
        EDIT: { guard: 'isListed', target: 'edit', actions: 'assignEditing' },
        DELETE: { guard: 'isListed', target: 'deleting' },
        ASK_FORGET: { target: 'asking', actions: 'clearProblem' },
      },
    },
    adding: {
      id: 'memories.adding',
      description: 'Saves the new memory; refused while memory is off.',
      tags: 'listed',
      invoke: {
        id: 'addMemory',
        src: 'addMemory',
        input: ({ context }) => context.draft,
        onDone: {
          target: '#memories.idle',
          actions: { type: 'assignAdded', params: ({ event }) => ({ memory: event.output }) },
        },
        onError: { target: '#memories.idle', actions: { type: 'assignRefusal', params: errorParams } },
      },
    },
    deleting: {
      id: 'memories.deleting',
      description: 'Deletes one memory.',
      tags: 'listed',
      entry: 'clearProblem',
      invoke: {
        id: 'deleteMemory',
        src: 'deleteMemory',
        input: ({ event }) => {
          assertEvent(event, 'DELETE');
          return { id: event.id };
        },
        onDone: {
          target: '#memories.idle',
          actions: { type: 'dropOne', params: ({ event }) => ({ id: event.output }) },
        },
        onError: { target: '#memories.idle', actions: { type: 'assignError', params: errorParams } },
      },
    },
    edit: {
      id: 'memories.edit',
      description: 'The Edit dialog; Escape keeps it.',
      tags: 'listed',
      initial: 'editing',
      states: {
        editing: {
          id: 'memories.edit.editing',
          description: 'The text to change; a problem shows at it.',
          on: {
            SAVE: [
              { guard: 'hasText', target: 'savingEdit', actions: 'assignDraft' },
              { actions: 'assignNoText' },
            ],
            CANCEL: { target: '#memories.idle', actions: 'closeEditor' },
          },
        },
        savingEdit: {
          id: 'memories.edit.savingEdit',
          description: 'Saves the text; a refusal shows in the dialog.',
          invoke: {
            id: 'editMemory',
            src: 'editMemory',
            input: ({ context }) => ({ id: context.editing?._id ?? '', text: context.draft.text }),
            onDone: {
              target: '#memories.idle',
              actions: { type: 'assignEdited', params: ({ event }) => ({ memory: event.output }) },
            },
            onError: { target: 'editing', actions: { type: 'assignRefusal', params: errorParams } },
          },
        },
      },
    },
    asking: {
      id: 'memories.asking',
      description: 'Forget all: a dialog asks first.',
      tags: 'listed',
      on: {
        CANCEL: { target: '#memories.idle', actions: 'clearProblem' },
        FORGET: { target: 'forgetting', actions: 'clearProblem' },
      },
    },
    forgetting: {
      id: 'memories.forgetting',
      description: 'Deletes them all; a failure shows in the dialog.',
      tags: 'listed',
      invoke: {
        id: 'forgetAll',
        src: 'forgetAll',
        onDone: { target: '#memories.idle', actions: 'dropAll' },
        onError: { target: 'asking', actions: { type: 'assignError', params: errorParams } },
      },
    },
  },
});
