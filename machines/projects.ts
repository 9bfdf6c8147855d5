import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';
import { withRecord } from './records';

/** Something a project names by id: a file, a group, a knowledge base, its owner. */
export interface NamedRef {
  _id: string;
  name: string;
}

/** A project holds at most this many files (the server's limit too). */
export const maxProjectFiles = 20;

/** A project's file: its type and size shown in the form. */
export interface ProjectFile extends NamedRef {
  type: string;
  size: number;
}

/** A project as the member sees it: their own, or one shared with a group of theirs (`shared`). */
export interface ProjectRecord {
  _id: string;
  name: string;
  instructions: string;
  /** The default bot's id: a new chat in the project starts with it. */
  bot: string | null;
  files: ProjectFile[];
  /** Ids of the knowledge bases its replies search. */
  knowledgeBases: string[];
  /** Ids of the groups it is shared with. */
  groups: string[];
  owner: NamedRef;
  /** The member is not its owner: they read it and start their own conversations in it. */
  shared: boolean;
}

/** What the project form offers: the groups to share with and the knowledge bases the member may use. */
export interface ProjectChoices {
  groups: NamedRef[];
  knowledgeBases: NamedRef[];
}

/** What the form sends to create or change a project. */
export interface ProjectDraft {
  name: string;
  instructions: string;
  bot: string | null;
  /** Ids of its files, uploaded like attachments. */
  files: string[];
  knowledgeBases: string[];
  groups: string[];
}

/** The form's fields, where a refusal shows. */
export const projectFields = ['name', 'instructions', 'bot', 'files', 'knowledgeBases', 'groups'] as const;
export type ProjectField = (typeof projectFields)[number];

/** The longest instructions a project keeps. */
export const maxInstructions = 8000;

/** What becomes of a deleted project's conversations: deleted with it, or moved out of it. */
export type ProjectConversations = 'delete' | 'keep';

export interface ProjectsContext {
  items: ProjectRecord[];
  /** Why the list could not be fetched. */
  error: string | null;
  /** The project the dialog is about; null while creating one. */
  target: ProjectRecord | null;
  choices: ProjectChoices;
  /** Why the dialog's last request failed, at the field the server named when the form has it. */
  problem: { field: ProjectField | null; message: string } | null;
}

export type ProjectsEvent =
  | { type: 'LOAD' }
  | { type: 'RETRY' }
  | { type: 'NEW' }
  /** Opens a project's dialog: its form for its owner, a read-only view for a member it is shared with. */
  | { type: 'EDIT'; project: ProjectRecord }
  | { type: 'SAVE'; draft: ProjectDraft }
  | { type: 'ASK_DELETE'; project: ProjectRecord }
  | { type: 'DELETE'; conversations: ProjectConversations }
  | { type: 'CANCEL' }
  | { type: 'RESET' };

/** A draft the server could take: a name, and instructions within their limit. */
export const draftIsComplete = (draft: ProjectDraft) =>
  draft.name.trim() !== '' && draft.instructions.length <= maxInstructions;

const noChoices: ProjectChoices = { groups: [], knowledgeBases: [] };
const forgotten = {
  items: [],
  error: null,
  target: null,
  choices: noChoices,
  problem: null,
} satisfies ProjectsContext;

export const projectsMachine = setup({
  types: {
    context: {} as ProjectsContext,
    events: {} as ProjectsEvent,
  },
  actors: {
    /** The member's own projects and those shared with their groups (GET /api/v1/project). */
    fetchProjects: fromPromise<ProjectRecord[]>(async () => {
      throw new Error('fetchProjects is provided by the app');
    }),
    /** The groups and knowledge bases the form offers (GET /api/v1/project/choices). */
    fetchChoices: fromPromise<ProjectChoices>(async () => {
      throw new Error('fetchChoices is provided by the app');
    }),
    /** Creates (id null) or changes a project; answers it as stored. */
    saveProject: fromPromise<ProjectRecord, { id: string | null; draft: ProjectDraft }>(async () => {
      throw new Error('saveProject is provided by the app');
    }),
    deleteProject: fromPromise<unknown, { id: string; conversations: ProjectConversations }>(async () => {
      throw new Error('deleteProject is provided by the app');
    }),
  },
  guards: {
    isShared: ({ event }) => event.type === 'EDIT' && event.project.shared,
    isComplete: ({ event }) => event.type === 'SAVE' && draftIsComplete(event.draft),
  },
  actions: {
    /** Effects the app provides: a project made is opened in the sidebar… */
    showProject: (_, _params: { project: ProjectRecord }) => {
      throw new Error('showProject is provided by the app');
    },
    /** …and once one is deleted, its conversations are listed afresh (gone, or out of it). */
    leaveProject: (_, _params: { id: string }) => {
      throw new Error('leaveProject is provided by the app');
    },
    assignItems: assign((_, { items }: { items: ProjectRecord[] }) => ({ items, error: null })),
    assignListError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    assignTarget: assign({
      target: ({ event }) => {
        assertEvent(event, ['EDIT', 'ASK_DELETE']);
        return event.project;
      },
      problem: null,
    }),
    clearTarget: assign({ target: null, problem: null }),
    assignChoices: assign((_, { choices }: { choices: ProjectChoices }) => ({ choices })),
    assignProblem: assign((_, { error }: { error: unknown }) => ({
      problem: formProblem(error, projectFields),
    })),
    /** The project as stored, in its place (a new one first), and the dialog closed. */
    storeProject: assign(({ context }, { project }: { project: ProjectRecord }) => ({
      items: withRecord(context.items, project),
      target: null,
      problem: null,
    })),
    removeTarget: assign(({ context }) => ({
      items: context.items.filter((item) => item._id !== context.target?._id),
      target: null,
      problem: null,
    })),
    forgetAll: assign(forgotten),
  },
}).createMachine({
  id: 'projects',
  description:
    "The member's projects in the sidebar, and the dialogs that create, change, show and delete one.",
  type: 'parallel',
  context: forgotten,
  on: {
    // Logged out: the next user sees nothing of this one's projects.
    RESET: { target: ['.list.idle', '.dialog.closed'], actions: 'forgetAll' },
  },
  states: {
    list: {
      description: 'The projects listed above the conversations.',
      initial: 'idle',
      states: {
        idle: {
          id: 'projects.list.idle',
          description: 'Nothing listed yet; the sidebar asks when it appears.',
          on: { LOAD: 'loading' },
        },
        loading: {
          id: 'projects.list.loading',
          description: 'Fetches the projects.',
          invoke: {
            id: 'fetchProjects',
            src: 'fetchProjects',
            onDone: {
              target: 'loaded',
              actions: { type: 'assignItems', params: ({ event }) => ({ items: event.output }) },
            },
            onError: { target: 'failed', actions: { type: 'assignListError', params: errorParams } },
          },
        },
        loaded: {
          id: 'projects.list.loaded',
          description: 'Listed.',
        },
        failed: {
          id: 'projects.list.failed',
          description: 'The projects could not be fetched; they can be asked for again.',
          on: { RETRY: 'loading' },
        },
      },
    },
    dialog: {
      description: 'Creating, changing, reading or deleting one project, each in its dialog.',
      initial: 'closed',
      states: {
        closed: {
          id: 'projects.dialog.closed',
          description: 'No dialog open.',
          on: {
            NEW: { target: 'loadingChoices', actions: 'clearTarget' },
            EDIT: [
              { guard: 'isShared', target: 'reading', actions: 'assignTarget' },
              { target: 'loadingChoices', actions: 'assignTarget' },
            ],
            ASK_DELETE: { target: 'confirmingDelete', actions: 'assignTarget' },
          },
        },
        loadingChoices: {
          id: 'projects.dialog.loadingChoices',
          description: 'Fetches the groups and knowledge bases the form offers.',
          invoke: {
            id: 'fetchChoices',
            src: 'fetchChoices',
            onDone: {
              target: 'editing',
              actions: { type: 'assignChoices', params: ({ event }) => ({ choices: event.output }) },
            },
            // The form still works without them: name, instructions, files and bot need none.
            onError: { target: 'editing', actions: { type: 'assignProblem', params: errorParams } },
          },
          on: { CANCEL: { target: 'closed', actions: 'clearTarget' } },
        },
        editing: {
          id: 'projects.dialog.editing',
          description: 'The form: name, instructions, files, knowledge bases, default bot, groups.',
          on: {
            SAVE: { guard: 'isComplete', target: 'saving' },
            CANCEL: { target: 'closed', actions: 'clearTarget' },
          },
        },
        saving: {
          id: 'projects.dialog.saving',
          description: 'Creates or changes the project (the name travels RSA-encrypted).',
          invoke: {
            id: 'saveProject',
            src: 'saveProject',
            input: ({ context, event }) => {
              assertEvent(event, 'SAVE');
              return { id: context.target?._id ?? null, draft: event.draft };
            },
            onDone: {
              target: 'closed',
              actions: [
                { type: 'showProject', params: ({ event }) => ({ project: event.output }) },
                { type: 'storeProject', params: ({ event }) => ({ project: event.output }) },
              ],
            },
            onError: { target: 'editing', actions: { type: 'assignProblem', params: errorParams } },
          },
        },
        reading: {
          id: 'projects.dialog.reading',
          description: 'A project shared with the member: its instructions and files, nothing to change.',
          on: { CANCEL: { target: 'closed', actions: 'clearTarget' } },
        },
        confirmingDelete: {
          id: 'projects.dialog.confirmingDelete',
          description: 'Asks whether its conversations are deleted with it or moved out of it.',
          on: {
            DELETE: 'deleting',
            CANCEL: { target: 'closed', actions: 'clearTarget' },
          },
        },
        deleting: {
          id: 'projects.dialog.deleting',
          description: 'Deletes the project, and its conversations or only their tie to it.',
          invoke: {
            id: 'deleteProject',
            src: 'deleteProject',
            input: ({ context, event }) => {
              assertEvent(event, 'DELETE');
              return { id: context.target?._id ?? '', conversations: event.conversations };
            },
            onDone: {
              target: 'closed',
              actions: [
                { type: 'leaveProject', params: ({ context }) => ({ id: context.target?._id ?? '' }) },
                'removeTarget',
              ],
            },
            onError: { target: 'confirmingDelete', actions: { type: 'assignProblem', params: errorParams } },
          },
        },
      },
    },
  },
});
