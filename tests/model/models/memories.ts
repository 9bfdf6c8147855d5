import { type Memory, memoriesMachine } from '../../../machines/memories';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording, stamp } from './shared';

const fact: Memory = { _id: 'm1', text: 'Likes tea', project: 'p1', createdAt: stamp, source: 'model' };
const added: Memory = { _id: 'm2', text: 'Lives in Lyon', project: null, createdAt: stamp, source: 'member' };
const projects = [{ _id: 'p1', name: 'Thesis' }];

export const memoriesModel: MachineModel = {
  name: 'memories',
  provide: (world) =>
    memoriesMachine.provide({
      actors: {
        listMemories: recording(world, 'listMemories'),
        addMemory: recording(world, 'addMemory'),
        editMemory: recording(world, 'editMemory'),
        deleteMemory: recording(world, 'deleteMemory'),
        forgetAll: recording(world, 'forgetAll'),
      },
    }),
  inputs: [undefined],
  events: [
    done('listMemories', { memories: [fact], projects }),
    failed('listMemories'),
    { type: 'RETRY' },
    { type: 'ADD', text: ' Lives in Lyon ', project: null },
    { type: 'ADD', text: '   ', project: 'p1' },
    done('addMemory', added),
    failedOn('addMemory', 'text'),
    { type: 'EDIT', id: 'm1' },
    { type: 'EDIT', id: 'nobody' },
    { type: 'SAVE', text: 'Likes green tea' },
    { type: 'SAVE', text: 'y'.repeat(1001) },
    { type: 'CANCEL' },
    done('editMemory', { ...fact, text: 'Likes green tea' }),
    failed('editMemory'),
    { type: 'DELETE', id: 'm1' },
    done('deleteMemory', 'm1'),
    failed('deleteMemory'),
    { type: 'ASK_FORGET' },
    { type: 'FORGET' },
    done('forgetAll'),
    failed('forgetAll'),
  ],
  serialize: (snapshot) => {
    const { memories, editing, problem } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      [...new Set(memories.map((memory: Memory) => `${memory._id}:${memory.text}`))],
      editing?._id ?? null,
      problem?.field ?? problem?.message ?? null,
    ]);
  },
  check: (snapshot, world, event) => {
    const { memories, editing, problem, projects: choices } = snapshot.context;
    if (snapshot.matches('loading')) expect(lastCall(world, 'listMemories')).toBe('listMemories null');
    if (snapshot.matches('failed')) expect(problem?.message).toBe('listMemories failed');
    if (event?.type === 'xstate.done.actor.listMemories') expect(choices).toEqual(projects);
    // The text goes trimmed, with the project picked; an empty or too long one never goes.
    if (snapshot.matches('adding'))
      expect(lastCall(world, 'addMemory')).toBe('addMemory {"text":"Lives in Lyon","project":null}');
    if (event?.type === 'ADD' && !(event.text as string).trim()) {
      expect(snapshot.matches('adding')).toBe(false);
      expect(problem).toEqual({ field: 'text', message: 'Write the memory first.' });
    }
    if (event?.type === 'xstate.done.actor.addMemory') expect(memories[0]).toEqual(added);
    if (event?.type === 'xstate.error.actor.addMemory') expect(problem?.field).toBe('text');
    if (snapshot.matches('edit')) expect(editing?._id).toBe('m1');
    else expect(editing).toBeNull();
    if (event?.type === 'EDIT' && event.id === 'nobody')
      expect(snapshot.matches({ edit: 'editing' })).toBe(false);
    if (snapshot.matches({ edit: 'savingEdit' }))
      expect(lastCall(world, 'editMemory')).toBe('editMemory {"id":"m1","text":"Likes green tea"}');
    if (event?.type === 'SAVE' && (event.text as string).length > 1000) {
      expect(snapshot.matches({ edit: 'editing' })).toBe(true);
      expect(problem?.message).toBe('A memory has 1,000 characters at most.');
    }
    if (event?.type === 'xstate.done.actor.editMemory')
      expect(memories.find((memory: Memory) => memory._id === 'm1')?.text).toBe('Likes green tea');
    if (event?.type === 'xstate.error.actor.editMemory')
      expect(snapshot.matches({ edit: 'editing' })).toBe(true);
    if (snapshot.matches('deleting'))
      expect(lastCall(world, 'deleteMemory')).toBe('deleteMemory {"id":"m1"}');
    if (event?.type === 'xstate.done.actor.deleteMemory')
      expect(memories.map((memory: Memory) => memory._id)).not.toContain('m1');
    if (event?.type === 'xstate.error.actor.deleteMemory')
      expect(problem?.message).toBe('deleteMemory failed');
    if (event?.type === 'xstate.done.actor.forgetAll') expect(memories).toEqual([]);
    if (event?.type === 'xstate.error.actor.forgetAll') {
      expect(snapshot.matches('asking')).toBe(true);
      expect(problem?.message).toBe('forgetAll failed');
    }
  },
};
