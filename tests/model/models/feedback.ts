import { feedbackMachine } from '../../../machines/feedback';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const reply = { topicId: 't1', messageId: 'm1' };

/** The thumbs of a reply: given, changed, taken back, with a reason or without, saves failing or not. */
export const feedbackModel: MachineModel = {
  name: 'feedback',
  provide: (world) => feedbackMachine.provide({ actors: { saveFeedback: recording(world, 'saveFeedback') } }),
  inputs: [
    { ...reply, feedback: null },
    { ...reply, feedback: { rating: 'up', reason: 'Clear' } },
  ],
  // The server answers what it keeps: the thumb being saved, the reason sent with it.
  events: (snapshot) => {
    const { rating } = snapshot.context;
    return [
      { type: 'RATE', rating: 'up' },
      { type: 'RATE', rating: 'down' },
      { type: 'SEND', reason: 'Too long' },
      { type: 'SKIP' },
      done('saveRating', rating ? { rating, reason: '' } : null),
      failed('saveRating'),
      done('saveReason', rating ? { rating, reason: 'Too long' } : null),
      failed('saveReason'),
    ];
  },
  check: (snapshot, world, event) => {
    const { saved, rating, error } = snapshot.context;
    expect([snapshot.context.topicId, snapshot.context.messageId]).toEqual(['t1', 'm1']);
    const call = lastCall(world, 'saveFeedback');
    if (snapshot.matches('rating')) {
      expect(call).toBe(`saveFeedback ${JSON.stringify({ ...reply, rating })}`);
      expect(error).toBeNull();
    } else if (snapshot.matches('sendingReason')) {
      expect(call).toBe(`saveFeedback ${JSON.stringify({ ...reply, rating, reason: 'Too long' })}`);
      expect(rating).not.toBeNull();
    } else expect(rating).toBe(saved?.rating ?? null);
    // A thumb is given; the one pressed (as saved: a thumb is pressed from rest) is taken back.
    if (event?.type === 'RATE') expect(rating).toBe(event.rating === saved?.rating ? null : event.rating);
    if (snapshot.matches('askingReason')) expect(saved?.rating).toBe(rating);
    if (event?.type === 'xstate.done.actor.saveReason') expect(saved?.reason).toBe('Too long');
    if (event?.type === 'xstate.error.actor.saveRating') {
      expect(snapshot.matches('idle')).toBe(true);
      expect(error).toBe('saveRating failed');
    }
    if (event?.type === 'xstate.error.actor.saveReason') {
      expect(snapshot.matches('askingReason')).toBe(true);
      expect(error).toBe('saveReason failed');
    }
    if (event?.type === 'SEND' || event?.type === 'SKIP') expect(error).toBeNull();
  },
};
