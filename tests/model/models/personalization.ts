import { personalizationMachine } from '../../../machines/personalization';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording } from './shared';

const stored = { text: 'I teach maths.', useMemory: true };

export const personalizationModel: MachineModel = {
  name: 'personalization',
  provide: (world) =>
    personalizationMachine.provide({
      actors: {
        loadInstructions: recording(world, 'loadInstructions'),
        saveInstructions: recording(world, 'saveInstructions'),
      },
    }),
  inputs: [undefined],
  events: [
    done('loadInstructions', stored),
    failed('loadInstructions'),
    { type: 'RETRY' },
    { type: 'SAVE', text: 'Answer briefly.' },
    { type: 'SAVE', text: 'x'.repeat(3001) },
    { type: 'SET_MEMORY', on: false },
    done('saveText', { text: 'Answer briefly.', useMemory: true }),
    failedOn('saveText', 'text'),
    done('saveSwitch', { text: 'I teach maths.', useMemory: false }),
    failed('saveSwitch'),
  ],
  serialize: (snapshot) => {
    const { instructions, problem } = snapshot.context;
    return JSON.stringify([snapshot.value, instructions, problem?.field ?? problem?.message ?? null]);
  },
  check: (snapshot, world, event) => {
    const { instructions, problem } = snapshot.context;
    if (snapshot.matches('loading'))
      expect(lastCall(world, 'loadInstructions')).toBe('loadInstructions null');
    if (snapshot.matches('failed')) expect(problem?.message).toBe('loadInstructions failed');
    // Only what changed goes: the text, or the switch.
    if (snapshot.matches('saving'))
      expect(lastCall(world, 'saveInstructions')).toBe('saveInstructions {"text":"Answer briefly."}');
    if (snapshot.matches('switching')) {
      expect(lastCall(world, 'saveInstructions')).toBe('saveInstructions {"useMemory":false}');
      // The switch shows what was clicked while it is saved.
      expect(instructions.useMemory).toBe(false);
    }
    // Over 3,000 characters is never sent, and said at the text.
    if (event?.type === 'SAVE' && (event.text as string).length > 3000) {
      expect(snapshot.matches('saving')).toBe(false);
      expect(problem).toEqual({
        field: 'text',
        message: 'Custom instructions have 3,000 characters at most.',
      });
    }
    if (event?.type === 'xstate.error.actor.saveText') expect(problem?.field).toBe('text');
    if (event?.type === 'xstate.error.actor.saveSwitch') {
      // The switch goes back to what is stored: nothing changed.
      expect(problem).toEqual({ field: null, message: 'saveSwitch failed' });
      const answers = world.sent.filter((step) => step.type.startsWith('xstate.done.actor.'));
      expect(instructions).toEqual(answers.at(-1)?.output);
    }
    if (event?.type === 'xstate.done.actor.saveSwitch') expect(instructions.useMemory).toBe(false);
    if (snapshot.matches('saved')) expect(problem).toBeNull();
  },
};
