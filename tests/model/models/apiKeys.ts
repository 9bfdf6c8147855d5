import { type ApiKey, apiKeysMachine, type CreatedKey } from '../../../machines/apiKeys';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording, stamp } from './shared';

const listed: ApiKey = {
  _id: 'k1',
  name: 'Laptop',
  createdAt: stamp,
  expiresAt: null,
  lastUsedAt: stamp,
  last4: 'abcd',
};
const created: CreatedKey = {
  _id: 'k2',
  name: 'Deploy script',
  createdAt: stamp,
  expiresAt: '2999-12-31T23:59:59.999Z',
  lastUsedAt: null,
  last4: 'wxyz',
  key: 'pk-parley-secret-wxyz',
};
const today = '2026-01-02';
const turnedOff = 'API access is turned off for this organization.';

export const apiKeysModel: MachineModel = {
  name: 'apiKeys',
  provide: (world) =>
    apiKeysMachine.provide({
      actors: {
        listKeys: recording(world, 'listKeys'),
        createKey: recording(world, 'createKey'),
        revokeKey: recording(world, 'revokeKey'),
      },
    }),
  inputs: [undefined],
  events: [
    done('listKeys', { keys: [listed] }),
    done('listKeys', { turnedOff }),
    failed('listKeys'),
    { type: 'RETRY' },
    { type: 'CREATE', name: '  ', expiresAt: '', today },
    { type: 'CREATE', name: 'Deploy script', expiresAt: '2025-12-31', today },
    { type: 'CREATE', name: ' Deploy script ', expiresAt: '2999-12-31', today },
    done('createKey', created),
    failed('createKey'),
    failedOn('createKey', 'expiresAt'),
    { type: 'DISMISS' },
    { type: 'ASK_REVOKE', id: 'k1' },
    { type: 'ASK_REVOKE', id: 'nobody' },
    { type: 'CANCEL_REVOKE' },
    { type: 'REVOKE' },
    done('revokeKey'),
    failed('revokeKey'),
  ],
  serialize: (snapshot) => {
    const { keys, problems, newKey, revoking, error } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      // Which keys are listed, not how often: each path may make the same key again.
      [...new Set(keys.map((key: ApiKey) => key._id))],
      problems.map((problem: { field: string | null }) => problem.field),
      !!newKey,
      revoking?._id ?? null,
      !!error,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    if (snapshot.matches('loading')) expect(lastCall(world, 'listKeys')).toBe('listKeys null');
    if (snapshot.matches('turnedOff')) {
      expect(context.turnedOff).toBe(turnedOff);
      expect(context.keys).toEqual([]);
    } else expect(context.turnedOff).toBeNull();
    if (snapshot.matches('failed')) expect(context.error).toBe('listKeys failed');
    // The name goes trimmed, the day as picked; nothing goes out that the form would refuse.
    if (snapshot.matches('creating'))
      expect(lastCall(world, 'createKey')).toBe(
        `createKey ${JSON.stringify({ name: 'Deploy script', expiresAt: '2999-12-31' })}`,
      );
    if (event?.type === 'CREATE' && !snapshot.matches('creating')) {
      const fields = context.problems.map((problem: { field: string | null }) => problem.field);
      expect(fields).toEqual([(event.name as string).trim() ? 'expiresAt' : 'name']);
    }
    // The key is shown once: while its dialog is open, and never again once dismissed.
    expect(context.newKey).toBe(snapshot.matches('showingKey') ? created.key : null);
    if (event?.type === 'xstate.done.actor.createKey') {
      // Listed at once as the server answered it, without the key itself.
      const { key: _, ...record } = created;
      expect(context.keys[0]).toEqual(record);
      expect(context.problems).toEqual([]);
    }
    if (event?.type === 'xstate.error.actor.createKey') {
      expect(snapshot.matches('idle')).toBe(true);
      const problem = context.problems[0];
      expect(problem.field).toBe((event.error as { field?: string }).field ?? null);
    }
    if (snapshot.matches('confirming') || snapshot.matches('revoking'))
      expect(context.revoking?._id).toBe('k1');
    else expect(context.revoking).toBeNull();
    if (snapshot.matches('revoking')) expect(lastCall(world, 'revokeKey')).toBe('revokeKey {"id":"k1"}');
    if (event?.type === 'xstate.done.actor.revokeKey')
      expect(context.keys.map((key: ApiKey) => key._id)).not.toContain('k1');
    if (event?.type === 'xstate.error.actor.revokeKey') {
      expect(snapshot.matches('confirming')).toBe(true);
      expect(context.error).toBe('revokeKey failed');
    }
    if (event?.type === 'ASK_REVOKE' && event.id === 'nobody')
      expect(snapshot.matches('confirming')).toBe(false);
  },
};
