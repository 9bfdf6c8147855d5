import { type EventObject, fromCallback } from 'xstate';
import { attachmentMachine } from '../../../machines/attachment';
import type { MachineModel } from '../harness';
import { expect } from '../harness';

const stored = { _id: 'f1', name: 'notes.txt', type: 'text/plain', size: 12 };
const picked = { key: 'file-1', name: 'notes.txt', type: 'text/plain', size: 12 };

export const attachmentModel: MachineModel = {
  name: 'attachment',
  provide: (world) =>
    attachmentMachine.provide({
      actors: {
        uploadFile: fromCallback<EventObject, { name: string }>(({ input }) => {
          world.calls.push(`upload ${input.name}`);
        }) as never,
      },
      actions: {
        reportUploaded: ({ context }) => world.calls.push(`uploaded ${context.key} ${context.file?._id}`),
        reportFailed: ({ context }) => world.calls.push(`failed ${context.key}`),
        reportRetrying: ({ context }) => world.calls.push(`retrying ${context.key}`),
      },
    }),
  // New bytes, and a file the server already holds (a refused message given back).
  inputs: [
    { ...picked, source: new Blob(['hello, world']) },
    { ...picked, source: null, uploaded: stored },
  ],
  events: [
    { type: 'PROGRESS', loaded: 6, total: 12 },
    { type: 'PROGRESS', loaded: 0, total: 0 },
    { type: 'UPLOADED', file: stored },
    {
      type: 'UPLOAD_FAILED',
      error: { message: 'This type of file is not accepted.', code: 'UNSUPPORTED_TYPE' },
    },
    { type: 'RETRY' },
  ],
  serialize: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.progress]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const uploads = world.calls.filter((call) => call.startsWith('upload '));
    // A file the server holds is not sent again; new bytes are sent once, and again for each Retry.
    if (!event && context.source === null) {
      expect(snapshot.value).toBe('ready');
      expect(uploads).toEqual([]);
    }
    const retries = world.sent.filter((step) => step.type === 'RETRY').length;
    if (context.source !== null) expect(uploads).toHaveLength(1 + retries);
    if (event?.type === 'PROGRESS' && snapshot.matches('uploading'))
      expect(context.progress).toBe((event.total as number) ? 0.5 : 0);
    if (snapshot.matches('ready')) {
      expect(context.file).toEqual(stored);
      expect(context.progress).toBe(1);
    }
    if (event?.type === 'UPLOADED') expect(world.calls.at(-1)).toBe('uploaded file-1 f1');
    if (snapshot.matches('uploadFailed')) {
      expect(context.error?.code).toBe('UNSUPPORTED_TYPE');
      expect(world.calls.at(-1)).toBe('failed file-1');
    }
    if (event?.type === 'RETRY') {
      expect(snapshot.matches('uploading')).toBe(true);
      expect(context.error).toBeNull();
      expect(context.progress).toBe(0);
      expect(world.calls.at(-2)).toBe('retrying file-1');
    }
  },
};
