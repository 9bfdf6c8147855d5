import { readAloudMachine } from '../../../machines/readAloud';
import { createStoredValues } from '../../../src/app/storedValues';
import { readAloudActions } from '../../../src/app/voiceActions';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording, silent } from './shared';

export const readAloudModel: MachineModel = {
  name: 'readAloud',
  provide: (world) =>
    readAloudMachine.provide({
      actors: { fetchSpeech: recording(world, 'fetchSpeech'), playAudio: silent(), speak: silent() },
      actions: readAloudActions(createStoredValues(world.storage)),
    }),
  inputs: [{ voice: null }],
  events: [
    { type: 'READ', messageId: 'm1', text: 'Hello', server: true },
    { type: 'READ', messageId: 'm2', text: 'Bye', server: false },
    { type: 'STOP' },
    { type: 'ENDED' },
    { type: 'FAILED', message: 'The audio cannot be played.' },
    { type: 'DISMISS' },
    { type: 'CHOOSE_VOICE', voice: 'nova' },
    { type: 'CHOOSE_VOICE', voice: null },
    done('fetchSpeech', 'blob:audio'),
    failed('fetchSpeech'),
  ],
  serialize: (snapshot) => JSON.stringify([snapshot.value, snapshot.context]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    if (event?.type === 'CHOOSE_VOICE') {
      expect(context.voice).toBe(event.voice);
      expect(world.storage.getItem('voice')).toBe(event.voice);
    }
    if (event?.type === 'READ') {
      // The server speaks when the organization has speech; else the browser's own voice reads.
      expect(snapshot.value).toBe(event.server ? 'fetching' : 'speaking');
      expect([context.messageId, context.text, context.problem]).toEqual([event.messageId, event.text, null]);
      if (event.server)
        expect(lastCall(world, 'fetchSpeech')).toBe(
          `fetchSpeech ${JSON.stringify({ text: event.text, voice: context.voice })}`,
        );
    }
    if (snapshot.matches('playing')) expect(context.audio).toBe('blob:audio');
    if (event?.type === 'FAILED' && snapshot.matches('failed')) expect(context.problem).toBe(event.message);
    if (event?.type === 'xstate.error.actor.fetchSpeech') {
      expect(snapshot.value).toBe('failed');
      expect(context.problem).toBe('fetchSpeech failed');
    }
    if (snapshot.matches('idle'))
      expect([context.messageId, context.audio, context.problem]).toEqual([null, null, null]);
  },
};
