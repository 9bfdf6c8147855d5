import { assertEvent, assign, fromCallback, setup } from 'xstate';
import type { ProjectChoice } from './memories';

/** What an import answers (`POST /api/v1/import`): how many conversations came in, how many were there already. */
export interface ImportResult {
  imported: number;
  skipped: number;
  topics: string[];
}

/** The file to import and the project to put its conversations in (null: none). */
export interface ImportRequest {
  file: Blob;
  name: string;
  project: string | null;
}

export interface ImporterContext {
  request: ImportRequest | null;
  /** The share of the file sent so far, 0 to 1. */
  progress: number;
  result: ImportResult | null;
  error: string | null;
  /** The member's projects, for the picker; loaded with the section. */
  projects: ProjectChoice[];
}

export type ImporterEvent =
  | { type: 'IMPORT'; file: Blob | null; name: string; project: string | null }
  /** The upload sent `loaded` of `total` bytes. */
  | { type: 'PROGRESS'; loaded: number; total: number }
  | { type: 'IMPORTED'; result: ImportResult }
  | { type: 'IMPORT_FAILED'; message: string }
  | { type: 'PROJECTS'; projects: ProjectChoice[] };

export const importerMachine = setup({
  types: {
    context: {} as ImporterContext,
    events: {} as ImporterEvent,
  },
  actors: {
    /** Sends the file as multipart `file` (+ `project`), reporting PROGRESS, then IMPORTED or IMPORT_FAILED. */
    importFile: fromCallback<ImporterEvent, ImportRequest>(() => {
      throw new Error('importFile is provided by the app');
    }),
    /** The member's projects for the picker (GET /api/v1/project): PROJECTS; none when they cannot be read. */
    listProjects: fromCallback<ImporterEvent>(() => {
      throw new Error('listProjects is provided by the app');
    }),
  },
  guards: {
    hasFile: ({ event }) => {
      assertEvent(event, 'IMPORT');
      return event.file !== null;
    },
    isSent: ({ event }) => {
      assertEvent(event, 'PROGRESS');
      return event.total > 0 && event.loaded >= event.total;
    },
  },
  actions: {
    assignRequest: assign({
      request: ({ event }) => {
        assertEvent(event, 'IMPORT');
        return { file: event.file ?? new Blob(), name: event.name, project: event.project };
      },
      progress: 0,
      result: null,
      error: null,
    }),
    assignNoFile: assign({ error: 'Choose a file to import.', result: null }),
    assignProgress: assign({
      progress: ({ event }) => {
        assertEvent(event, 'PROGRESS');
        return event.total > 0 ? Math.min(1, event.loaded / event.total) : 0;
      },
    }),
    assignResult: assign({
      result: ({ event }) => {
        assertEvent(event, 'IMPORTED');
        return event.result;
      },
      request: null,
    }),
    assignFailure: assign({
      error: ({ event }) => {
        assertEvent(event, 'IMPORT_FAILED');
        return event.message;
      },
      request: null,
    }),
    assignProjects: assign({
      projects: ({ event }) => {
        assertEvent(event, 'PROJECTS');
        return event.projects;
      },
    }),
    /** The conversation list shows what came in. */
    announceImported: () => {
      throw new Error('announceImported is provided by the app');
    },
  },
}).createMachine({
  id: 'importer',
  description:
    'Import conversations: a ChatGPT or Claude export uploaded with its progress, then the result.',
  context: { request: null, progress: 0, result: null, error: null, projects: [] },
  invoke: { id: 'listProjects', src: 'listProjects' },
  on: { PROJECTS: { actions: 'assignProjects' } },
  initial: 'idle',
  states: {
    idle: {
      id: 'importer.idle',
      description: 'The file picker, the project and Import; the last result or problem shows.',
      on: {
        IMPORT: [
          { guard: 'hasFile', target: 'sending', actions: 'assignRequest' },
          { actions: 'assignNoFile' },
        ],
      },
    },
    sending: {
      id: 'importer.sending',
      description: 'The file goes to the server, which imports it as it arrives.',
      invoke: {
        id: 'importFile',
        src: 'importFile',
        input: ({ context }) => context.request ?? { file: new Blob(), name: '', project: null },
      },
      on: {
        IMPORTED: { target: 'idle', actions: ['assignResult', 'announceImported'] },
        IMPORT_FAILED: { target: 'idle', actions: 'assignFailure' },
      },
      initial: 'uploading',
      states: {
        uploading: {
          id: 'importer.sending.uploading',
          description: "The progress bar shows the upload's percentage.",
          on: {
            PROGRESS: [
              { guard: 'isSent', target: 'importing', actions: 'assignProgress' },
              { actions: 'assignProgress' },
            ],
          },
        },
        importing: {
          id: 'importer.sending.importing',
          description: 'Every byte is sent: "Importing…" while the server reads the conversations.',
        },
      },
    },
  },
});
