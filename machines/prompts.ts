import { and, assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';
import { commandOf, commandProblem, maxPromptTitle, type Prompt, promptTextProblem } from './promptText';

/** What the Prompt dialog sends: the fields as typed. */
export interface PromptDraft {
  command: string;
  title: string;
  text: string;
  visibility: Prompt['visibility'];
}

export type PromptField = 'command' | 'title' | 'text' | 'visibility';
const fields = ['command', 'title', 'text', 'visibility'] as const;

export interface PromptsContext {
  prompts: Prompt[];
  /** The prompt being edited in the dialog; null while adding one (or with no dialog). */
  editing: Prompt | null;
  /** The draft last sent, cleaned (the command without its `/`, the rest trimmed). */
  draft: PromptDraft;
  /** Why something failed: at a field of the dialog, or (field null) about the list or the dialog. */
  problem: { field: PromptField | null; message: string } | null;
}

export type PromptsEvent =
  | { type: 'RETRY' }
  | { type: 'NEW' }
  | { type: 'EDIT'; id: string }
  | { type: 'CANCEL' }
  | { type: 'SAVE'; draft: PromptDraft }
  | { type: 'DELETE'; id: string };

const cleaned = (draft: PromptDraft): PromptDraft => ({
  command: commandOf(draft.command),
  title: draft.title.trim(),
  text: draft.text.trim(),
  visibility: draft.visibility,
});

/** The first problem of a draft, field by field as the dialog shows them; null when it can go. */
export function draftProblem(draft: PromptDraft): PromptsContext['problem'] {
  const clean = cleaned(draft);
  const command = commandProblem(clean.command);
  if (command) return { field: 'command', message: command };
  if (!clean.title) return { field: 'title', message: 'Write a title.' };
  if ([...clean.title].length > maxPromptTitle)
    return { field: 'title', message: `A title has ${maxPromptTitle} characters at most.` };
  const text = promptTextProblem(clean.text);
  return text ? { field: 'text', message: text } : null;
}

/** As the server lists them: by command, the member's own before the organization's. */
const byCommand = (a: Prompt, b: Prompt) =>
  a.command === b.command ? b.visibility.localeCompare(a.visibility) : a.command < b.command ? -1 : 1;

const draftOf = (event: PromptsEvent) => {
  assertEvent(event, 'SAVE');
  return event.draft;
};

export const promptsMachine = setup({
  types: {
    context: {} as PromptsContext,
    events: {} as PromptsEvent,
  },
  actors: {
    /** The member's prompts and the organization's (GET /api/v1/prompt). */
    listPrompts: fromPromise<Prompt[]>(async () => {
      throw new Error('listPrompts is provided by the app');
    }),
    /** Saves a new one (POST /api/v1/prompt). */
    addPrompt: fromPromise<Prompt, PromptDraft>(async () => {
      throw new Error('addPrompt is provided by the app');
    }),
    /** Changes one (PATCH /api/v1/prompt/:id). */
    editPrompt: fromPromise<Prompt, { id: string; draft: PromptDraft }>(async () => {
      throw new Error('editPrompt is provided by the app');
    }),
    /** Deletes one (DELETE /api/v1/prompt/:id); answers its id. */
    deletePrompt: fromPromise<string, { id: string }>(async () => {
      throw new Error('deletePrompt is provided by the app');
    }),
  },
  guards: {
    isValid: ({ event }) => draftProblem(draftOf(event)) === null,
    isListed: ({ context, event }) => {
      assertEvent(event, ['EDIT', 'DELETE']);
      return context.prompts.some((prompt) => prompt._id === event.id);
    },
    isAdding: ({ context }) => context.editing === null,
    isNewAndValid: and(['isValid', 'isAdding']),
  },
  actions: {
    assignList: assign((_, { prompts }: { prompts: Prompt[] }) => ({ prompts, problem: null })),
    assignError: assign((_, { error }: { error: unknown }) => ({
      problem: { field: null, message: messageOf(error) },
    })),
    assignRefusal: assign((_, { error }: { error: unknown }) => ({ problem: formProblem(error, fields) })),
    assignInvalid: assign({ problem: ({ event }) => draftProblem(draftOf(event)) }),
    clearProblem: assign({ problem: null }),
    assignDraft: assign({ draft: ({ event }) => cleaned(draftOf(event)), problem: null }),
    assignEditing: assign({
      editing: ({ context, event }) => {
        assertEvent(event, 'EDIT');
        return context.prompts.find((prompt) => prompt._id === event.id) ?? null;
      },
      problem: null,
    }),
    closeDialog: assign({ editing: null, problem: null }),
    /** The saved prompt in its place; the list stays in command order. */
    assignSaved: assign(({ context }, { prompt }: { prompt: Prompt }) => ({
      prompts: [...context.prompts.filter((item) => item._id !== prompt._id), prompt].sort(byCommand),
      editing: null,
      problem: null,
    })),
    dropOne: assign(({ context }, { id }: { id: string }) => ({
      prompts: context.prompts.filter((prompt) => prompt._id !== id),
    })),
  },
}).createMachine({
  id: 'prompts',
  description:
    "Profile → Prompts: the member's prompts and the organization's; adding, editing, deleting one.",
  context: {
    prompts: [],
    editing: null,
    draft: { command: '', title: '', text: '', visibility: 'private' },
    problem: null,
  },
  initial: 'loading',
  states: {
    loading: {
      id: 'prompts.loading',
      description: 'Fetches the prompts as the section opens.',
      invoke: {
        id: 'listPrompts',
        src: 'listPrompts',
        onDone: {
          target: 'idle',
          actions: { type: 'assignList', params: ({ event }) => ({ prompts: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
      },
    },
    failed: {
      id: 'prompts.failed',
      description: 'They could not be loaded: the reason and Retry.',
      on: { RETRY: { target: 'loading', actions: 'clearProblem' } },
    },
    idle: {
      id: 'prompts.idle',
      description: 'The list: Add, and Edit and Delete on those the member may change.',
      tags: 'listed',
      on: {
        NEW: { target: 'dialog', actions: 'closeDialog' },
        EDIT: { guard: 'isListed', target: 'dialog', actions: 'assignEditing' },
        DELETE: { guard: 'isListed', target: 'deleting' },
      },
    },
    deleting: {
      id: 'prompts.deleting',
      description: 'Deletes one prompt.',
      tags: 'listed',
      entry: 'clearProblem',
      invoke: {
        id: 'deletePrompt',
        src: 'deletePrompt',
        input: ({ event }) => {
          assertEvent(event, 'DELETE');
          return { id: event.id };
        },
        onDone: {
          target: 'idle',
          actions: { type: 'dropOne', params: ({ event }) => ({ id: event.output }) },
        },
        onError: { target: 'idle', actions: { type: 'assignError', params: errorParams } },
      },
    },
    dialog: {
      id: 'prompts.dialog',
      description: 'The Prompt dialog, new or editing one; Cancel or Escape closes it.',
      tags: 'listed',
      initial: 'editing',
      states: {
        editing: {
          id: 'prompts.editing',
          description:
            'Command, title, text (and for admins, the whole organization); a problem shows at its field.',
          on: {
            SAVE: [
              { guard: 'isNewAndValid', target: 'adding', actions: 'assignDraft' },
              { guard: 'isValid', target: 'changing', actions: 'assignDraft' },
              { actions: 'assignInvalid' },
            ],
            CANCEL: { target: '#prompts.idle', actions: 'closeDialog' },
          },
        },
        changing: {
          id: 'prompts.changing',
          description: 'Saves the changed prompt; a refusal shows in the dialog.',
          invoke: {
            id: 'editPrompt',
            src: 'editPrompt',
            input: ({ context }) => ({ id: context.editing?._id ?? '', draft: context.draft }),
            onDone: {
              target: '#prompts.idle',
              actions: { type: 'assignSaved', params: ({ event }) => ({ prompt: event.output }) },
            },
            onError: { target: 'editing', actions: { type: 'assignRefusal', params: errorParams } },
          },
        },
        adding: {
          id: 'prompts.adding',
          description: 'Saves the new prompt; a refusal (a command taken) shows in the dialog.',
          invoke: {
            id: 'addPrompt',
            src: 'addPrompt',
            input: ({ context }) => context.draft,
            onDone: {
              target: '#prompts.idle',
              actions: { type: 'assignSaved', params: ({ event }) => ({ prompt: event.output }) },
            },
            onError: { target: 'editing', actions: { type: 'assignRefusal', params: errorParams } },
          },
        },
      },
    },
  },
});
