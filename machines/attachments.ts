import { type AnyActorRef, assertEvent, assign, enqueueActions, fromCallback, setup } from 'xstate';

/** At most this many files go with one message (the server's limit too). */
export const maxAttachments = 10;

/** A file as the server keeps it and a message carries it (the same shape as machines/attachment.ts's). */
export interface StoredFile {
  _id: string;
  name: string;
  type: string;
  size: number;
  removed?: boolean;
}

/** What a person picked, dropped or pasted: the browser's File has this shape. */
export interface PickedFile {
  name: string;
  type: string;
  size: number;
  /** The bytes; absent only where there are none to send (a model's stand-in). */
  source?: Blob;
}

export type AttachmentStatus = 'uploading' | 'uploadFailed' | 'ready';

/** One chip of the composer: the file's own actor (an `attachment` machine) uploads it. */
export interface AttachmentEntry {
  key: string;
  name: string;
  type: string;
  size: number;
  status: AttachmentStatus;
  /** The file as stored, once uploaded: what the message carries. */
  file: StoredFile | null;
  ref: AnyActorRef;
}

export interface AttachmentsContext {
  files: AttachmentEntry[];
  /** How many files it takes: a message's `maxAttachments`, or more where the input says so (a project). */
  limit: number;
  /** How many files were added so far: each gets a key of its own. */
  added: number;
  /** Files left out of the last ADD: the message already had as many as it can carry. */
  leftOut: number;
}

export type AttachmentsEvent =
  | { type: 'ADD'; files: PickedFile[] }
  | { type: 'REMOVE'; key: string }
  /** Files the server already holds come back to the composer: a message it refused, nothing lost. */
  | { type: 'RESTORE'; files: StoredFile[] }
  /** The message was sent with the files: the composer starts afresh. */
  | { type: 'CLEAR' }
  /** Reports of the files' own actors. */
  | { type: 'FILE_UPLOADED'; key: string; file: StoredFile }
  | { type: 'FILE_FAILED'; key: string }
  | { type: 'FILE_RETRYING'; key: string };

const statusAfter = (event: AttachmentsEvent): AttachmentStatus =>
  event.type === 'FILE_UPLOADED' ? 'ready' : event.type === 'FILE_FAILED' ? 'uploadFailed' : 'uploading';

export const attachmentsMachine = setup({
  types: {
    context: {} as AttachmentsContext,
    events: {} as AttachmentsEvent,
    input: {} as { limit?: number },
  },
  actors: {
    /** One file's upload: the app provides machines/attachment.ts, which reports FILE_* events here. */
    attachment: fromCallback<
      AttachmentsEvent,
      { key: string; name: string; type: string; size: number; source: Blob | null; uploaded?: StoredFile }
    >(() => {
      throw new Error('attachment is provided by the app');
    }),
  },
  guards: {
    hasNoFiles: ({ context }) => context.files.length === 0,
    isUploading: ({ context }) => context.files.some((entry) => entry.status === 'uploading'),
    hasFailure: ({ context }) => context.files.some((entry) => entry.status === 'uploadFailed'),
    isListed: ({ context, event }) => {
      assertEvent(event, ['REMOVE', 'FILE_UPLOADED', 'FILE_FAILED', 'FILE_RETRYING']);
      return context.files.some((entry) => entry.key === event.key);
    },
  },
  actions: {
    /** An uploaded file taken off the message is deleted on the server (`file` of the entry removed). */
    discardUpload: () => {
      throw new Error('discardUpload is provided by the app');
    },
    /** Each file gets its own actor, which starts uploading it; those beyond the limit are left out. */
    addFiles: assign(({ context, event, spawn }) => {
      assertEvent(event, 'ADD');
      const room = Math.max(0, context.limit - context.files.length);
      const taken = event.files.slice(0, room);
      const added = taken.map((picked, index): AttachmentEntry => {
        const key = `file-${context.added + index + 1}`;
        return {
          key,
          name: picked.name,
          type: picked.type,
          size: picked.size,
          status: 'uploading',
          file: null,
          ref: spawn('attachment', {
            id: key,
            input: {
              key,
              name: picked.name,
              type: picked.type,
              size: picked.size,
              source: picked.source ?? null,
            },
          }),
        };
      });
      return {
        files: [...context.files, ...added],
        added: context.added + taken.length,
        leftOut: event.files.length - taken.length,
      };
    }),
    restoreFiles: assign(({ context, event, spawn }) => {
      assertEvent(event, 'RESTORE');
      const room = Math.max(0, context.limit - context.files.length);
      const restored = event.files.slice(0, room).map((file, index): AttachmentEntry => {
        const key = `file-${context.added + index + 1}`;
        return {
          key,
          name: file.name,
          type: file.type,
          size: file.size,
          status: 'ready',
          file,
          ref: spawn('attachment', {
            id: key,
            input: { key, name: file.name, type: file.type, size: file.size, source: null, uploaded: file },
          }),
        };
      });
      return { files: [...context.files, ...restored], added: context.added + restored.length, leftOut: 0 };
    }),
    /** The file leaves the message: its upload, if still running, is stopped. */
    removeFile: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'REMOVE');
      enqueue.stopChild(event.key);
      enqueue.assign({ files: context.files.filter((entry) => entry.key !== event.key), leftOut: 0 });
    }),
    assignStatus: assign({
      files: ({ context, event }) => {
        assertEvent(event, ['FILE_UPLOADED', 'FILE_FAILED', 'FILE_RETRYING']);
        return context.files.map((entry) =>
          entry.key === event.key
            ? {
                ...entry,
                status: statusAfter(event),
                file: event.type === 'FILE_UPLOADED' ? event.file : entry.file,
              }
            : entry,
        );
      },
    }),
    clearFiles: enqueueActions(({ context, enqueue }) => {
      for (const entry of context.files) enqueue.stopChild(entry.key);
      enqueue.assign({ files: [], leftOut: 0 });
    }),
  },
}).createMachine({
  id: 'attachments',
  description:
    'The files of the message being written: each uploads on its own; Send waits until every one is on the server.',
  context: ({ input }) => ({ files: [], limit: input?.limit ?? maxAttachments, added: 0, leftOut: 0 }),
  initial: 'empty',
  on: {
    ADD: { target: '.sorting', actions: 'addFiles' },
    REMOVE: { guard: 'isListed', target: '.sorting', actions: ['discardUpload', 'removeFile'] },
    FILE_UPLOADED: { guard: 'isListed', target: '.sorting', actions: 'assignStatus' },
    FILE_FAILED: { guard: 'isListed', target: '.sorting', actions: 'assignStatus' },
    FILE_RETRYING: { guard: 'isListed', target: '.sorting', actions: 'assignStatus' },
    CLEAR: { target: '.sent', actions: 'clearFiles' },
  },
  states: {
    sorting: {
      id: 'sorting',
      description: 'Looks at the files after a change: the state says what Send waits for, if anything.',
      always: [
        { guard: 'hasNoFiles', target: 'empty' },
        { guard: 'isUploading', target: 'uploading' },
        { guard: 'hasFailure', target: 'needsAttention' },
        { target: 'ready' },
      ],
    },
    empty: {
      id: 'empty',
      description: 'No files: the message is its text alone.',
    },
    sent: {
      id: 'sent',
      description:
        'The message went with its files: none shown, but they come back should the server refuse the message.',
      on: { RESTORE: { target: 'sorting', actions: 'restoreFiles' } },
    },
    uploading: {
      id: 'uploading',
      description: 'A file is still uploading: Send waits for it, and says so.',
    },
    needsAttention: {
      id: 'needsAttention',
      description: 'An upload failed: Send waits until the file is tried again or removed.',
    },
    ready: {
      id: 'ready',
      description: 'Every file is on the server: the message can carry them.',
    },
  },
});
