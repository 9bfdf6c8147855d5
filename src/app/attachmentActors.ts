import { fromCallback } from 'xstate';
import { type AttachmentEvent, attachmentMachine } from '../../machines/attachment';
import { attachmentsMachine } from '../../machines/attachments';
import { HttpError } from '../api/http';
import type { WorkspaceEndpoints } from '../api/workspaceEndpoints';

/**
 * The attachment machine's `uploadFile`: the bytes as multipart `file`, PROGRESS from the request's
 * upload events, then UPLOADED or UPLOAD_FAILED with the server's message. Leaving aborts the upload.
 */
export function createUploadFile(api: WorkspaceEndpoints) {
  return fromCallback<AttachmentEvent, { name: string; source: Blob | null }>(({ input, sendBack }) => {
    const controller = new AbortController();
    // A file without bytes (none is made so) is sent empty: the server says it cannot read it.
    api
      .uploadFile(
        input.source ?? new Blob(),
        input.name,
        (loaded, total) => sendBack({ type: 'PROGRESS', loaded, total }),
        controller.signal,
      )
      .then(
        (file) =>
          sendBack({
            type: 'UPLOADED',
            file: { _id: file._id, name: file.name, type: file.type, size: file.size },
          }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const failure = error instanceof HttpError ? error : new HttpError(0, String(error), 'UNKNOWN');
          sendBack({ type: 'UPLOAD_FAILED', error: { message: failure.message, code: failure.code } });
        },
      );
    return () => controller.abort();
  });
}

/** The composer's files with their effects: each file's upload, and the deletion of one taken off. */
export function createAttachments(api: WorkspaceEndpoints) {
  const attachment = attachmentMachine.provide({ actors: { uploadFile: createUploadFile(api) } });
  return attachmentsMachine.provide({
    actors: { attachment: attachment as never },
    actions: {
      // A file nobody sends is no use on the server; a deletion that fails leaves it to the account's own.
      discardUpload: ({ context, event }) => {
        if (event.type !== 'REMOVE') return;
        const entry = context.files.find((file) => file.key === event.key);
        if (entry?.file) void api.deleteFile(entry.file._id).catch(() => {});
      },
    },
  });
}

/** Reads a Blob as a data: URL, which the page's CSP allows for images (blob: it does not). */
const dataUrlOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`The file could not be read.`));
    reader.readAsDataURL(blob);
  });

/**
 * What messages do with the files they carry: an image's thumbnail or full picture as a data: URL
 * (the content route wants the bearer token: no plain <img src>), and a download of any file.
 * Each picture is asked for once per page.
 */
export function createFileAccess(
  api: WorkspaceEndpoints,
  saveFile: (name: string, contents: Blob, type: string) => void,
) {
  const pictures = new Map<string, Promise<string>>();
  const picture = (id: string, thumbnail: boolean) => {
    const key = `${id}:${thumbnail}`;
    let known = pictures.get(key);
    if (!known) {
      known = api.fileContent(id, thumbnail).then(dataUrlOf);
      known.catch(() => pictures.delete(key));
      pictures.set(key, known);
    }
    return known;
  };
  return {
    thumbnail: (id: string) => picture(id, true),
    image: (id: string) => picture(id, false),
    download: async (file: { _id: string; name: string; type: string }) => {
      const blob = await api.fileContent(file._id);
      saveFile(file.name, blob, blob.type || file.type);
    },
  };
}

export type FileAccess = ReturnType<typeof createFileAccess>;
