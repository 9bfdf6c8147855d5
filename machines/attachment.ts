import { assertEvent, assign, fromCallback, sendParent, setup } from 'xstate';

/** A file as the server keeps it and a message carries it; `removed` once its owner deleted it. */
export interface AttachedFile {
  _id: string;
  name: string;
  type: string;
  size: number;
  removed?: boolean;
}

/** Why an upload failed, in the server's words (or the network's). */
export interface UploadError {
  message: string;
  code: string;
}

/** What the composer was given: bytes to upload, or a file the server already holds (a message given back). */
export interface AttachmentInput {
  key: string;
  name: string;
  type: string;
  size: number;
  /** The bytes picked, dropped or pasted; null for a file already uploaded. */
  source: Blob | null;
  uploaded?: AttachedFile;
}

export interface AttachmentContext {
  key: string;
  name: string;
  type: string;
  size: number;
  source: Blob | null;
  /** The share of the bytes sent so far, 0 to 1. */
  progress: number;
  /** The file as stored, once uploaded. */
  file: AttachedFile | null;
  error: UploadError | null;
}

export type AttachmentEvent =
  /** The upload sent `loaded` of `total` bytes. */
  | { type: 'PROGRESS'; loaded: number; total: number }
  | { type: 'UPLOADED'; file: AttachedFile }
  | { type: 'UPLOAD_FAILED'; error: UploadError }
  | { type: 'RETRY' };

/** What a file tells the composer's list of files when its upload ends or starts again. */
export type AttachmentReport =
  | { type: 'FILE_UPLOADED'; key: string; file: AttachedFile }
  | { type: 'FILE_FAILED'; key: string }
  | { type: 'FILE_RETRYING'; key: string };

export const attachmentMachine = setup({
  types: {
    context: {} as AttachmentContext,
    events: {} as AttachmentEvent,
    input: {} as AttachmentInput,
  },
  actors: {
    /** Sends the bytes as multipart `file`, reporting PROGRESS, then UPLOADED or UPLOAD_FAILED; leaving aborts it. */
    uploadFile: fromCallback<AttachmentEvent, { name: string; source: Blob | null }>(() => {
      throw new Error('uploadFile is provided by the app');
    }),
  },
  guards: {
    isUploaded: ({ context }) => context.file !== null,
  },
  actions: {
    assignProgress: assign({
      progress: ({ event }) => {
        assertEvent(event, 'PROGRESS');
        return event.total > 0 ? Math.min(1, event.loaded / event.total) : 0;
      },
    }),
    assignFile: assign({
      file: ({ event }) => {
        assertEvent(event, 'UPLOADED');
        return event.file;
      },
      progress: 1,
      error: null,
    }),
    assignError: assign({
      error: ({ event }) => {
        assertEvent(event, 'UPLOAD_FAILED');
        return event.error;
      },
    }),
    restart: assign({ progress: 0, error: null }),
    /** The composer's list of files hears of each upload that ends or starts again. */
    reportUploaded: sendParent(({ context }) => ({
      type: 'FILE_UPLOADED',
      key: context.key,
      file: context.file as AttachedFile,
    })),
    reportFailed: sendParent(({ context }) => ({ type: 'FILE_FAILED', key: context.key })),
    reportRetrying: sendParent(({ context }) => ({ type: 'FILE_RETRYING', key: context.key })),
  },
}).createMachine({
  id: 'attachment',
  description:
    'One file of the message being written: uploaded as soon as it is chosen, with its progress; a failed upload can be tried again.',
  context: ({ input }) => ({
    key: input.key,
    name: input.name,
    type: input.type,
    size: input.size,
    source: input.source,
    progress: input.uploaded ? 1 : 0,
    file: input.uploaded ?? null,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      id: 'starting',
      description: 'A file the server already holds is ready at once; new bytes are uploaded.',
      always: [{ guard: 'isUploaded', target: 'ready' }, { target: 'uploading' }],
    },
    uploading: {
      id: 'uploading',
      description: 'The bytes go to the server; the chip shows how far.',
      invoke: {
        id: 'uploadFile',
        src: 'uploadFile',
        input: ({ context }) => ({ name: context.name, source: context.source }),
      },
      on: {
        PROGRESS: { actions: 'assignProgress' },
        UPLOADED: { target: 'ready', actions: ['assignFile', 'reportUploaded'] },
        UPLOAD_FAILED: { target: 'uploadFailed', actions: ['assignError', 'reportFailed'] },
      },
    },
    uploadFailed: {
      id: 'uploadFailed',
      description:
        'The server refused the file or could not be reached: its message shows, with Retry and Remove.',
      on: { RETRY: { target: 'uploading', actions: ['restart', 'reportRetrying'] } },
    },
    ready: {
      id: 'ready',
      description: 'Stored on the server: the message can carry it.',
    },
  },
});
