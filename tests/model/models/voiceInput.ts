import { voiceInputMachine } from '../../../machines/voiceInput';
import { createStoredValues } from '../../../src/app/storedValues';
import { voiceInputActions } from '../../../src/app/voiceActions';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording, silent } from './shared';

const audio = { size: 4096 };

export const voiceInputModel: MachineModel = {
  name: 'voiceInput',
  provide: (world) =>
    voiceInputMachine.provide({
      actors: {
        openMicrophone: recording(world, 'openMicrophone'),
        record: silent(),
        transcribe: recording(world, 'transcribe'),
      },
      actions: voiceInputActions(createStoredValues(world.storage)),
    }),
  inputs: [{ sendAtOnce: false }],
  events: [
    { type: 'RECORD' },
    { type: 'STOP' },
    { type: 'CANCEL' },
    { type: 'DISMISS' },
    { type: 'TICK', seconds: 3 },
    { type: 'RECORDED', audio },
    { type: 'SET_SEND_AT_ONCE', on: true },
    done('openMicrophone', { stream: 1 }),
    failed('openMicrophone'),
    done('transcribe', ' Hello there '),
    done('transcribe', '  '),
    failed('transcribe'),
  ],
  serialize: (snapshot) => JSON.stringify([snapshot.value, snapshot.context]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    if (event?.type === 'SET_SEND_AT_ONCE') expect(world.storage.getItem('sendVoiceAtOnce')).toBe('true');
    if (snapshot.matches('opening')) expect(context.seconds).toBe(0);
    if (event?.type === 'TICK' && snapshot.matches('capturing')) expect(context.seconds).toBe(3);
    if (snapshot.matches('transcribing')) {
      expect(context.audio).toBe(audio);
      expect(lastCall(world, 'transcribe')).toBe(`transcribe ${JSON.stringify({ audio })}`);
    }
    if (event?.type === 'xstate.done.actor.transcribe') {
      const heard = (event.output as string).trim();
      if (heard) {
        // The transcript goes to the composer: into the box, or sent at once by the member's setting.
        expect(snapshot.matches('idle')).toBe(true);
        expect(world.emitted.at(-1)).toEqual({
          type: 'transcribed',
          text: 'Hello there',
          send: context.sendAtOnce,
        });
      } else {
        expect(snapshot.matches('failed')).toBe(true);
        expect(context.problem).toMatch(/Nothing was heard/);
      }
    }
    if (event?.type.startsWith('xstate.error.actor.')) {
      expect(snapshot.matches('failed')).toBe(true);
      expect(context.problem).toMatch(/failed$/);
    }
    if (snapshot.matches('idle')) expect([context.problem, context.audio]).toEqual([null, null]);
    if (snapshot.matches('opening')) expect(lastCall(world, 'openMicrophone')).toBe('openMicrophone null');
  },
};
