import { type SharedSnapshot, sharedConversationMachine } from '../../../machines/sharedConversation';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const snapshot: SharedSnapshot = {
  _id: 's1',
  title: 'Trip to Lisbon',
  bot: { _id: 'b1', name: 'ELIZA', platform: { name: 'builtin' } },
  messages: [
    { role: 'user', text: 'Where should I eat?', createdAt: '2026-01-02T03:04:05.000Z' },
    { role: 'bot', text: 'Why do you ask?', createdAt: '2026-01-02T03:04:06.000Z' },
  ],
  sharedAt: '2026-01-02T03:05:00.000Z',
};

/** Each input is one kind of viewer: a visitor, or someone logged in. */
export const sharedConversationModel: MachineModel = {
  name: 'sharedConversation',
  provide: (world) =>
    sharedConversationMachine.provide({
      actors: {
        fetchShare: recording(world, 'fetchShare'),
        continueShare: recording(world, 'continueShare'),
      },
      actions: {
        goToLogin: ({ context }) => void world.calls.push(`goToLogin ${context.shareId}`),
        openConversation: ({ event }) =>
          void world.calls.push(
            `openConversation ${(event as unknown as { output: { _id: string } }).output._id}`,
          ),
      },
    }),
  inputs: [{ loggedIn: false }, { loggedIn: true }],
  events: [
    { type: 'LOAD', shareId: 's1' },
    { type: 'LOAD', shareId: 's1', resume: true },
    { type: 'CONTINUE' },
    done('fetchShare', snapshot),
    failed('fetchShare'),
    done('continueShare', { _id: 't9' }),
    failed('continueShare'),
  ],
  serialize: (state) =>
    JSON.stringify([
      state.value,
      state.context.loggedIn,
      state.context.resume,
      !!state.context.snapshot,
      !!state.context.error,
    ]),
  check: (state, world, event) => {
    const { context } = state;
    if (state.matches('idle'))
      expect([context.shareId, context.snapshot, context.error]).toEqual([null, null, null]);
    if (state.matches('loading')) expect(lastCall(world, 'fetchShare')).toBe('fetchShare {"shareId":"s1"}');
    if (state.matches('shown')) expect(context.snapshot).toEqual(snapshot);
    if (state.matches('missing')) expect(context.error).toBe('fetchShare failed');
    // Only someone logged in continues; a visitor is sent to log in, and stays on the page.
    if (state.matches('continuing')) {
      expect(context.loggedIn).toBe(true);
      expect(lastCall(world, 'continueShare')).toBe('continueShare {"shareId":"s1"}');
    }
    if (event?.type === 'CONTINUE' && !context.loggedIn) {
      expect(state.matches('shown')).toBe(true);
      expect(world.calls.at(-1)).toBe('goToLogin s1');
    }
    if (event?.type === 'xstate.done.actor.continueShare')
      expect(world.calls.at(-1)).toBe('openConversation t9');
    if (event?.type === 'xstate.error.actor.continueShare')
      expect(context.error).toBe('continueShare failed');
    // Back from the login: a logged-in viewer continues as soon as the snapshot is there.
    if (event?.type === 'xstate.done.actor.fetchShare')
      expect(state.matches('continuing')).toBe(context.loggedIn && context.resume);
    // Opened once: going back to the page does not continue again.
    if (event?.type === 'xstate.done.actor.continueShare') expect(context.resume).toBe(false);
  },
};
