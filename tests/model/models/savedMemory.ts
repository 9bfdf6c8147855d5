import { savedMemoryMachine, savedMemoryOf } from '../../../machines/savedMemory';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const memory = savedMemoryOf('{"_id":"m1","text":"Likes tea"}');

export const savedMemoryModel: MachineModel = {
  name: 'savedMemory',
  provide: (world) =>
    savedMemoryMachine.provide({ actors: { forgetMemory: recording(world, 'forgetMemory') } }),
  inputs: [memory],
  events: [{ type: 'UNDO' }, done('forgetMemory'), failed('forgetMemory')],
  check: (snapshot, world, event) => {
    // A result that names no memory (a failed call, not JSON) shows no Undo.
    expect(savedMemoryOf('not json')).toBeNull();
    expect(savedMemoryOf('{"error":"x"}')).toBeNull();
    expect(snapshot.context.memory).toEqual({ _id: 'm1', text: 'Likes tea' });
    if (snapshot.matches('undoing')) expect(lastCall(world, 'forgetMemory')).toBe('forgetMemory {"id":"m1"}');
    if (event?.type === 'xstate.error.actor.forgetMemory') {
      expect(snapshot.matches('saved')).toBe(true);
      expect(snapshot.context.error).toBe('forgetMemory failed');
    } else expect(snapshot.context.error).toBeNull();
    if (event?.type === 'xstate.done.actor.forgetMemory') expect(snapshot.status).toBe('done');
  },
};
