import type { AnyMachineSnapshot } from 'xstate';
import { type AttachmentEntry, attachmentsMachine, maxAttachments } from '../../../machines/attachments';
import type { MachineModel, ModelEvent } from '../harness';
import { expect } from '../harness';
import { silent } from './shared';

const picked = (name: string) => ({ name, type: 'text/plain', size: 12 });
const stored = (id: string) => ({ _id: id, name: `${id}.png`, type: 'image/png', size: 300 });
const eleven = Array.from({ length: maxAttachments + 1 }, (_, index) => picked(`notes-${index + 1}.txt`));

const entries = (snapshot: AnyMachineSnapshot) => snapshot.context.files as AttachmentEntry[];

export const attachmentsModel: MachineModel = {
  name: 'attachments',
  provide: (world) =>
    attachmentsMachine.provide({
      actors: { attachment: silent() },
      actions: {
        discardUpload: ({ context, event }) => {
          const entry = (context.files as AttachmentEntry[]).find(
            (file) => file.key === (event as { key?: string }).key,
          );
          if (entry?.file) world.calls.push(`discard ${entry.file._id}`);
        },
      },
    }),
  // A message's files, and a project's (which takes more).
  inputs: [undefined, { limit: 20 }],
  // One or two files at a time keep the graph small; eleven show the limit.
  events: (snapshot) => {
    const files = entries(snapshot);
    // Reports of the first two files only: ten files of three states each would be 59 049 states.
    const keys = files.slice(0, 2).map((entry) => entry.key);
    const reports = keys.flatMap((key): ModelEvent[] => [
      { type: 'FILE_UPLOADED', key, file: stored(key) },
      { type: 'FILE_FAILED', key },
      { type: 'FILE_RETRYING', key },
      { type: 'REMOVE', key },
    ]);
    return [
      ...(files.length < 2 ? [{ type: 'ADD', files: [picked('notes.txt')] }] : []),
      ...(files.length === 0
        ? [
            { type: 'ADD', files: eleven },
            { type: 'RESTORE', files: [stored('kept')] },
          ]
        : []),
      { type: 'REMOVE', key: 'nobody' },
      { type: 'CLEAR' },
      ...reports,
    ];
  },
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      entries(snapshot).map((entry) => entry.status),
      snapshot.context.leftOut,
      snapshot.context.limit,
    ]),
  check: (snapshot, world, event) => {
    const files = entries(snapshot);
    const statuses = files.map((entry) => entry.status);
    const { limit, leftOut } = snapshot.context as { limit: number; leftOut: number };
    expect(files.length).toBeLessThanOrEqual(limit);
    // The state says what Send waits for.
    if (snapshot.matches('empty')) expect(files).toEqual([]);
    if (snapshot.matches('uploading')) expect(statuses).toContain('uploading');
    if (snapshot.matches('needsAttention')) {
      expect(statuses).not.toContain('uploading');
      expect(statuses).toContain('uploadFailed');
    }
    if (snapshot.matches('ready')) {
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 'ready')).toBe(true);
      for (const entry of files) expect(entry.file?._id).toBeDefined();
    }
    // Each file runs its own upload, named by its key.
    for (const entry of files) expect(entry.ref.id).toBe(entry.key);
    if (event?.type === 'ADD' && (event.files as unknown[]).length > maxAttachments) {
      expect(files).toHaveLength(Math.min(limit, eleven.length));
      expect(leftOut).toBe(limit === maxAttachments ? 1 : 0);
    }
    // Only the files of the message just sent come back, ready: they are on the server already.
    if (event?.type === 'RESTORE') {
      expect(snapshot.matches('ready')).toBe(true);
      expect(world.sent.at(-2)?.type).toBe('CLEAR');
    }
    // An uploaded file taken off the message is deleted on the server; one still uploading is only stopped.
    const removed = world.sent.filter((step) => step.type === 'REMOVE' && step.key !== 'nobody');
    if (event?.type === 'REMOVE') expect(files.some((entry) => entry.key === event.key)).toBe(false);
    if (removed.length === 0) expect(world.calls).toEqual([]);
    if (event?.type === 'CLEAR') expect(snapshot.matches('sent')).toBe(true);
    if (snapshot.matches('sent')) expect(files).toEqual([]);
  },
};
