import { type ShareLink, shareMachine } from '../../../machines/share';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const topic = { _id: 't1', title: 'Trip to Lisbon' };
const inside: ShareLink = {
  _id: 's1',
  url: '/s/s1',
  audience: 'organization',
  sharedAt: '2026-01-02T03:04:05.000Z',
};
const open: ShareLink = { ...inside, audience: 'public' };

export const shareModel: MachineModel = {
  name: 'share',
  provide: (world) =>
    shareMachine.provide({
      actors: {
        findShare: recording(world, 'findShare'),
        shareTopic: recording(world, 'shareTopic'),
        revokeShare: recording(world, 'revokeShare'),
      },
    }),
  inputs: [undefined],
  events: [
    { type: 'OPEN', topic },
    { type: 'CHOOSE', audience: 'public' },
    { type: 'SHARE' },
    { type: 'REVOKE' },
    { type: 'CLOSE' },
    { type: 'RESET' },
    done('findShare', null),
    done('findShare', inside),
    failed('findShare'),
    done('shareTopic', open),
    failed('shareTopic'),
    done('revokeShare'),
    failed('revokeShare'),
  ],
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.share?.audience ?? null,
      snapshot.context.audience,
      !!snapshot.context.error,
    ]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    if (snapshot.matches('closed'))
      expect(context).toEqual({ topic: null, share: null, audience: 'organization', error: null });
    else expect(context.topic).toEqual(topic);
    if (snapshot.matches('loading')) expect(lastCall(world, 'findShare')).toBe('findShare {"topicId":"t1"}');
    if (snapshot.matches('sharing'))
      expect(lastCall(world, 'shareTopic')).toBe(
        `shareTopic ${JSON.stringify({ topicId: 't1', audience: context.audience })}`,
      );
    if (snapshot.matches('revoking')) expect(lastCall(world, 'revokeShare')).toBe('revokeShare {"id":"s1"}');
    // The link found or made is shown with its own audience chosen.
    if (event?.type === 'xstate.done.actor.findShare' || event?.type === 'xstate.done.actor.shareTopic') {
      expect(context.share).toEqual(event.output);
      expect(context.audience).toBe((event.output as ShareLink | null)?.audience ?? 'organization');
    }
    if (event?.type === 'xstate.done.actor.revokeShare') expect(context.share).toBeNull();
    if (event?.type.startsWith('xstate.error.actor.')) {
      expect(snapshot.matches('ready')).toBe(true);
      expect(context.error).toMatch(/failed$/);
    }
    if (event?.type === 'CHOOSE') expect(context.audience).toBe('public');
  },
};
