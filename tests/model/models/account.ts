import { accountMachine } from '../../../machines/account';
import type { MachineModel, ModelEvent } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, recording, renamed } from './shared';

const accountRegions = {
  profile: {
    initial: 'idle',
    events: [
      { type: 'SAVE_PROFILE', changes: { displayName: 'Ada King' } },
      { type: 'SAVE_PROFILE', changes: { displayName: undefined } },
      done('updateProfile', renamed),
      failedOn('updateProfile', 'username'),
    ],
  },
  password: {
    initial: 'idle',
    events: [
      { type: 'CHANGE_PASSWORD', password: 'old password', newPassword: 'new password' },
      { type: 'CHANGE_PASSWORD', password: 'old password', newPassword: ' ' },
      done('changePassword', 'renewed-token'),
      failedOn('changePassword', 'password'),
    ],
  },
  sessions: {
    initial: 'idle',
    events: [{ type: 'LOG_OUT_EVERYWHERE' }, done('logoutEverywhere'), failed('logoutEverywhere')],
  },
  data: {
    initial: 'idle',
    events: [{ type: 'DOWNLOAD_DATA' }, done('exportData'), failed('exportData')],
  },
  deletion: {
    initial: 'closed',
    events: [
      { type: 'ASK_TO_DELETE' },
      { type: 'CANCEL_DELETE' },
      { type: 'DELETE_ACCOUNT', password: 'old password' },
      { type: 'DELETE_ACCOUNT', password: '' },
      done('deleteAccount', { success: true }),
      failedOn('deleteAccount', 'password'),
    ],
  },
  recovery: {
    initial: 'askingEmail',
    events: [
      { type: 'SEND_RESET_CODE', email: 'ada@example.org' },
      { type: 'SEND_RESET_CODE', email: '' },
      { type: 'ENTER_CODE', email: 'ada@example.org' },
      { type: 'ENTER_CODE', email: '' },
      done('sendResetCode', { sent: true }),
      failedOn('sendResetCode', 'email'),
      { type: 'RESET_PASSWORD', otp: '123456', password: 'new password' },
      { type: 'RESET_PASSWORD', otp: '', password: 'new password' },
      { type: 'CHANGE_EMAIL' },
      done('resetPassword', 'reset-token'),
      failedOn('resetPassword', 'password'),
    ],
  },
} as const;
type AccountRegion = keyof typeof accountRegions;
/** Each invoked actor: the region it works for and the state it runs in. */
const accountActors = {
  updateProfile: ['profile', 'saving'],
  changePassword: ['password', 'changing'],
  logoutEverywhere: ['sessions', 'loggingOutEverywhere'],
  exportData: ['data', 'exporting'],
  deleteAccount: ['deletion', 'deleting'],
  sendResetCode: ['recovery', 'sendingCode'],
  resetPassword: ['recovery', 'resetting'],
} as const;

export const accountModel: MachineModel = {
  name: 'account',
  provide: (world) =>
    accountMachine.provide({
      actors: Object.fromEntries(Object.keys(accountActors).map((id) => [id, recording(world, id)])),
    }),
  inputs: [undefined],
  // The regions are independent: one of them at a time leaves its resting state, which keeps the graph
  // small; SESSION_ENDED, which concerns them all, is offered everywhere.
  events: (snapshot) => {
    const value = snapshot.value as Record<AccountRegion, string>;
    const away = (Object.keys(accountRegions) as AccountRegion[]).filter(
      (region) => value[region] !== accountRegions[region].initial,
    );
    return [
      { type: 'SESSION_ENDED' },
      ...(Object.keys(accountRegions) as AccountRegion[])
        .filter((region) => away.length === 0 || away.includes(region))
        .flatMap((region) => accountRegions[region].events as unknown as ModelEvent[]),
    ];
  },
  serialize: (snapshot) => JSON.stringify([snapshot.value, Object.keys(snapshot.context.problems).sort()]),
  check: (snapshot, world, event) => {
    const { problems, recoveryEmail } = snapshot.context;
    const value = snapshot.value as Record<AccountRegion, string>;
    const last = world.emitted.at(-1);
    // A section at work shows no old problem.
    for (const [region, busy] of Object.values(accountActors))
      if (value[region] === busy) expect(problems[region]).toBeUndefined();
    // No call goes out without what it needs.
    for (const call of world.calls) expect(call).not.toMatch(/"(password|newPassword|otp|email)":"\s*"/);
    if (event?.type.startsWith('xstate.error.actor.')) {
      const actor = event.type.replace('xstate.error.actor.', '') as keyof typeof accountActors;
      const { error } = event as unknown as { error: { message: string; field?: string } };
      expect(problems[accountActors[actor][0]]).toEqual({
        message: error.message,
        ...(error.field ? { field: error.field } : {}),
      });
    }
    switch (event?.type) {
      case 'SAVE_PROFILE':
        if (value.profile === 'saving')
          expect(world.calls.at(-1)).toBe('updateProfile {"displayName":"Ada King"}');
        break;
      case 'xstate.done.actor.updateProfile':
        expect(value.profile).toBe('saved');
        expect(last).toEqual({ type: 'USER_UPDATED', user: renamed });
        break;
      case 'xstate.done.actor.changePassword':
        expect(value.password).toBe('changed');
        expect(last).toEqual({ type: 'TOKEN_RENEWED', token: 'renewed-token' });
        break;
      case 'xstate.done.actor.logoutEverywhere':
      case 'xstate.done.actor.deleteAccount':
        expect(last).toEqual({ type: 'SIGNED_OUT' });
        expect(value.deletion).toBe('closed');
        break;
      case 'xstate.error.actor.deleteAccount':
        // The dialog stays open on the problem (a wrong password also ends the session: see session).
        expect(value.deletion).toBe('confirming');
        break;
      case 'CANCEL_DELETE':
        expect(value.deletion).toBe('closed');
        expect(problems.deletion).toBeUndefined();
        break;
      case 'xstate.done.actor.resetPassword':
        expect(last).toEqual({ type: 'SIGNED_IN', token: 'reset-token' });
        expect(value.recovery).toBe('askingEmail');
        break;
      case 'ENTER_CODE':
        // A code the user already has: no new one is mailed (it would replace theirs).
        expect(value.recovery).toBe(recoveryEmail ? 'askingCode' : 'askingEmail');
        expect(world.calls.filter((call) => call.startsWith('sendResetCode'))).toHaveLength(
          world.sent.filter((sent) => sent.type === 'SEND_RESET_CODE' && sent.email).length,
        );
        break;
      case 'RESET_PASSWORD':
        if (value.recovery === 'resetting')
          expect(world.calls.at(-1)).toBe(
            'resetPassword {"email":"ada@example.org","otp":"123456","password":"new password"}',
          );
        break;
      case 'SESSION_ENDED':
        // Nothing of the last user stays; a password recovery under way is not theirs and goes on.
        expect(Object.keys(problems).filter((section) => section !== 'recovery')).toEqual([]);
        for (const region of Object.keys(accountRegions) as AccountRegion[])
          if (region !== 'recovery') expect(value[region]).toBe(accountRegions[region].initial);
        break;
    }
    if (value.recovery === 'askingCode' || value.recovery === 'resetting')
      expect(recoveryEmail).toBe('ada@example.org');
    // Every token and sign-out the session hears of comes from a call that succeeded.
    const succeeded = world.sent.filter((sent) => sent.type.startsWith('xstate.done.actor.')).length;
    const reported = world.emitted.length;
    expect(reported).toBeLessThanOrEqual(succeeded);
  },
};
