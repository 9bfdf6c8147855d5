import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

/** Where a document is on its way into the base: waiting, being read, searchable, or refused. */
export type DocumentStatus = 'queued' | 'indexing' | 'ready' | 'failed';

/** A document of a knowledge base; `error` says why a failed one could not be indexed. */
export interface KnowledgeDocument {
  _id: string;
  name: string;
  status: DocumentStatus;
  error?: string;
}

/** A knowledge base of the organization (`/api/v1/admin/knowledge/:id`): documents its bots search. */
export interface KnowledgeBaseRecord {
  _id: string;
  name: string;
  description: string;
  documents: KnowledgeDocument[];
}

export interface KnowledgeBaseContext {
  baseId: string;
  base: KnowledgeBaseRecord | null;
  /** Why the base could not be read. */
  error: string | null;
  /** The document a removal waits to be confirmed for. */
  target: KnowledgeDocument | null;
  /** Why an upload or a removal was refused, in a sentence. */
  problem: string | null;
  /** The last change that went through, for the screen to announce. */
  done: 'upload' | 'remove' | null;
}

export type KnowledgeBaseEvent =
  | { type: 'RETRY' }
  | { type: 'UPLOAD'; file: File }
  | { type: 'ASK_REMOVE'; document: KnowledgeDocument }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' };

/** A document the base is still working on: the base is read again until none is. */
export const isPending = (document: KnowledgeDocument) =>
  document.status === 'queued' || document.status === 'indexing';

/**
 * One knowledge base's page: its documents and their progress, read again every few seconds while
 * any is queued or indexing; documents uploaded one at a time, removed after a confirmation.
 */
export const knowledgeBaseMachine = setup({
  types: {
    context: {} as KnowledgeBaseContext,
    events: {} as KnowledgeBaseEvent,
    input: {} as { baseId: string },
  },
  actors: {
    /** The base with its documents and their status. */
    fetchBase: fromPromise<KnowledgeBaseRecord, { baseId: string }>(async () => {
      throw new Error('fetchBase is provided by the app');
    }),
    /** Uploads a document into the base; answers it, queued for indexing. */
    uploadDocument: fromPromise<KnowledgeDocument, { baseId: string; file: File }>(async () => {
      throw new Error('uploadDocument is provided by the app');
    }),
    /** Removes a document (and its passages) from the base. */
    removeDocument: fromPromise<unknown, { baseId: string; documentId: string }>(async () => {
      throw new Error('removeDocument is provided by the app');
    }),
  },
  delays: {
    /** How long the page waits before it reads a base with documents under way again. */
    pollDelay: 2000,
  },
  guards: {
    /** The base just read has documents under way. */
    answerIsPending: (_, { base }: { base: KnowledgeBaseRecord }) =>
      base.documents.some((document) => isPending(document)),
    /** The base shown has documents under way (one just uploaded, say). */
    hasPending: ({ context }) => context.base?.documents.some((document) => isPending(document)) ?? false,
    /** The base is shown: documents can be added and removed. */
    hasBase: ({ context }) => context.base !== null,
  },
  actions: {
    assignBase: assign((_, { base }: { base: KnowledgeBaseRecord }) => ({ base, error: null })),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    assignUploading: assign({ problem: null, done: null }),
    /** The uploaded document joins the list, queued. */
    assignUploaded: assign(({ context }, { document }: { document: KnowledgeDocument }) => ({
      base: context.base && {
        ...context.base,
        documents: [...context.base.documents.filter((listed) => listed._id !== document._id), document],
      },
      problem: null,
      done: 'upload' as const,
    })),
    assignTarget: assign({
      target: ({ event }) => {
        assertEvent(event, 'ASK_REMOVE');
        return event.document;
      },
      problem: null,
      done: null,
    }),
    assignRemoved: assign(({ context }) => ({
      base: context.base && {
        ...context.base,
        documents: context.base.documents.filter((document) => document._id !== context.target?._id),
      },
      target: null,
      problem: null,
      done: 'remove' as const,
    })),
    assignProblem: assign((_, { error }: { error: unknown }) => ({ problem: messageOf(error) })),
    clearChange: assign({ target: null, problem: null }),
  },
}).createMachine({
  id: 'knowledgeBase',
  description:
    'One knowledge base: its documents, watched until each is ready or failed; uploads and removals.',
  type: 'parallel',
  context: ({ input }) => ({
    baseId: input.baseId,
    base: null,
    error: null,
    target: null,
    problem: null,
    done: null,
  }),
  states: {
    base: {
      description: 'The base and its documents, as the server has them.',
      initial: 'reading',
      states: {
        reading: {
          description: 'Reads the base; what was shown stays shown meanwhile.',
          invoke: {
            id: 'fetchBase',
            src: 'fetchBase',
            input: ({ context }) => ({ baseId: context.baseId }),
            onDone: [
              {
                guard: { type: 'answerIsPending', params: ({ event }) => ({ base: event.output }) },
                target: 'watching',
                actions: { type: 'assignBase', params: ({ event }) => ({ base: event.output }) },
              },
              {
                target: 'settled',
                actions: { type: 'assignBase', params: ({ event }) => ({ base: event.output }) },
              },
            ],
            onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
          },
        },
        failed: {
          description: 'The base could not be read; the admin can retry.',
          on: { RETRY: 'reading' },
        },
        settled: {
          description: 'Every document is ready or failed; an upload starts the watch again.',
          always: { guard: 'hasPending', target: 'watching' },
        },
        watching: {
          description: 'Some document is queued or indexing: the base is read again in a moment.',
          after: { pollDelay: 'reading' },
        },
      },
    },
    change: {
      description: 'Uploading a document, or removing one once confirmed.',
      initial: 'idle',
      states: {
        idle: {
          description: 'No change under way; a document can be chosen and uploaded.',
          on: {
            UPLOAD: {
              guard: 'hasBase',
              target: 'uploading',
              actions: 'assignUploading',
            },
            ASK_REMOVE: {
              guard: 'hasBase',
              target: 'confirming',
              actions: 'assignTarget',
            },
          },
        },
        uploading: {
          description: 'Sends the document; the server checks its type and size, then queues it.',
          invoke: {
            id: 'uploadDocument',
            src: 'uploadDocument',
            input: ({ context, event }) => {
              assertEvent(event, 'UPLOAD');
              return { baseId: context.baseId, file: event.file };
            },
            onDone: {
              target: 'idle',
              actions: { type: 'assignUploaded', params: ({ event }) => ({ document: event.output }) },
            },
            onError: { target: 'idle', actions: { type: 'assignProblem', params: errorParams } },
          },
        },
        confirming: {
          description: 'The dialog asks to confirm the removal.',
          on: {
            CONFIRM: 'removing',
            CANCEL: { target: 'idle', actions: 'clearChange' },
          },
        },
        removing: {
          description: 'Removes the document and its passages on the server.',
          invoke: {
            id: 'removeDocument',
            src: 'removeDocument',
            input: ({ context }) => ({ baseId: context.baseId, documentId: context.target?._id ?? '' }),
            onDone: {
              target: 'idle',
              actions: 'assignRemoved',
            },
            onError: { target: 'confirming', actions: { type: 'assignProblem', params: errorParams } },
          },
        },
      },
    },
  },
});
