import { type KnowledgeDocument, knowledgeBaseMachine } from '../../../machines/knowledgeBase';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const document = (id: string, status: KnowledgeDocument['status']): KnowledgeDocument => ({
  _id: id,
  name: `${id}.pdf`,
  status,
  ...(status === 'failed' ? { error: 'This PDF has no text.' } : {}),
});
const base = (...documents: KnowledgeDocument[]) => ({
  _id: 'kb1',
  name: 'Handbook',
  description: 'How we work',
  documents,
});
const poll = 'xstate.after.pollDelay.knowledgeBase.base.watching';
const file = new File(['Pay day is the 25th.'], 'pay.txt', { type: 'text/plain' });

export const knowledgeBaseModel: MachineModel = {
  name: 'knowledgeBase',
  provide: (world) =>
    knowledgeBaseMachine.provide({
      actors: {
        fetchBase: recording(world, 'fetchBase'),
        uploadDocument: recording(world, 'uploadDocument'),
        removeDocument: recording(world, 'removeDocument'),
      },
    }),
  inputs: [{ baseId: 'kb1' }],
  events: [
    { type: 'RETRY' },
    done('fetchBase', base(document('d1', 'ready'), document('d2', 'failed'))),
    done('fetchBase', base(document('d1', 'ready'), document('d3', 'indexing'))),
    failed('fetchBase'),
    { type: poll },
    { type: 'UPLOAD', file },
    done('uploadDocument', document('d3', 'queued')),
    failed('uploadDocument'),
    { type: 'ASK_REMOVE', document: document('d1', 'ready') },
    { type: 'CONFIRM' },
    { type: 'CANCEL' },
    done('removeDocument'),
    failed('removeDocument'),
  ],
  serialize: (snapshot) => {
    const { base: shown, error, target, problem, done: last } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      shown?.documents.map((listed: KnowledgeDocument) => `${listed._id}:${listed.status}`) ?? null,
      !!error,
      target?._id ?? null,
      !!problem,
      last,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    const pending = context.base?.documents.some(
      (listed: KnowledgeDocument) => listed.status === 'queued' || listed.status === 'indexing',
    );
    // The base is read again while, and only while, a document is under way.
    if (value.base === 'watching') expect(pending).toBe(true);
    if (value.base === 'settled') expect(pending).toBe(false);
    if (value.base === 'reading') expect(lastCall(world, 'fetchBase')).toBe('fetchBase {"baseId":"kb1"}');
    if (event?.type === poll) expect(value.base).toBe('reading');
    if (value.base === 'failed') expect(context.error).toBe('fetchBase failed');
    // Nothing is uploaded or removed before the base is shown; a removal only once confirmed.
    if (value.change !== 'idle') expect(context.base).not.toBeNull();
    if (value.change === 'uploading')
      expect(lastCall(world, 'uploadDocument')).toBe('uploadDocument {"baseId":"kb1","file":{}}');
    if (event?.type === 'CONFIRM')
      expect(lastCall(world, 'removeDocument')).toBe('removeDocument {"baseId":"kb1","documentId":"d1"}');
    if (value.change === 'confirming') expect(context.target?._id).toBe('d1');
    // An upload joins the list queued, and the watch starts; a removal leaves it.
    if (event?.type === 'xstate.done.actor.uploadDocument') {
      expect(context.base?.documents.at(-1)).toEqual(document('d3', 'queued'));
      expect(value.base === 'watching' || value.base === 'reading' || value.base === 'failed').toBe(true);
      expect(context.done).toBe('upload');
    }
    if (event?.type === 'xstate.done.actor.removeDocument') {
      expect(context.base?.documents.some((listed: KnowledgeDocument) => listed._id === 'd1')).toBe(false);
      expect(context.target).toBeNull();
      expect(context.done).toBe('remove');
    }
    if (event?.type === 'xstate.error.actor.uploadDocument') {
      expect(value.change).toBe('idle');
      expect(context.problem).toBe('uploadDocument failed');
    }
    if (event?.type === 'xstate.error.actor.removeDocument') {
      expect(value.change).toBe('confirming');
      expect(context.problem).toBe('removeDocument failed');
    }
    if (event?.type === 'CANCEL') expect(context.target).toBeNull();
  },
};
