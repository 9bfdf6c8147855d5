import { membersMachine } from '../../../machines/members';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording, regionEvents } from './shared';

const member = (id: string, balance = 10) => ({
  _id: id,
  displayName: `Member ${id}`,
  username: id,
  email: `${id}@example.org`,
  role: 'member' as const,
  status: 'active' as const,
  balance,
});
const afterSearchDelay = 'xstate.after.searchDelay.members.list.debouncing';

export const membersModel: MachineModel = {
  name: 'members',
  provide: (world) =>
    membersMachine.provide({
      actors: {
        fetchPage: recording(world, 'fetchPage'),
        updateMember: recording(world, 'updateMember'),
        grantCredit: recording(world, 'grantCredit'),
        inviteMember: recording(world, 'inviteMember'),
      },
    }),
  inputs: [undefined],
  events: regionEvents(
    {
      list: {
        resting: ['idle', 'loaded'],
        events: [
          { type: 'LOAD' },
          { type: 'RETRY' },
          { type: 'LOAD_MORE' },
          { type: 'SEARCH', query: 'ada' },
          { type: 'SEARCH', query: ' ' },
          { type: afterSearchDelay },
          done('fetchPage', { items: [member('m1'), member('m2')], next: 'cursor-2' }),
          failed('fetchPage'),
          done('fetchMore', { items: [member('m2'), member('m3')], next: null }),
          failed('fetchMore'),
        ],
      },
      update: {
        resting: ['idle'],
        events: [
          { type: 'CHANGE_MEMBER', id: 'm1', change: { role: 'admin' } },
          done('updateMember', { ...member('m1'), role: 'admin' }),
          failed('updateMember'),
        ],
      },
      credit: {
        resting: ['closed', 'granted'],
        events: [
          { type: 'OPEN_CREDIT', member: member('m1') },
          { type: 'GRANT', amount: '5', note: 'Welcome' },
          { type: 'GRANT', amount: '0', note: ' ' },
          { type: 'GRANT', amount: '1.005', note: 'Welcome' },
          { type: 'CANCEL' },
          done('grantCredit', 15),
          failedOn('grantCredit', 'amount'),
        ],
      },
      invite: {
        resting: ['closed', 'sent'],
        events: [
          { type: 'OPEN_INVITE' },
          { type: 'INVITE', email: ' grace@example.org ', role: 'admin' },
          { type: 'INVITE', email: 'grace at example', role: 'member' },
          { type: 'CANCEL' },
          done('inviteMember', { sent: true }),
          failedOn('inviteMember', 'email'),
        ],
      },
    },
    [{ type: 'RESET' }],
  ),
  serialize: (snapshot) => {
    const { items, next, query, shownQuery, error, changeError, target, problems, invited } =
      snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.length,
      next !== null,
      query.trim() !== '',
      shownQuery !== '',
      !!error,
      !!changeError,
      target?._id ?? null,
      problems.length > 0,
      invited !== null,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    const ids = context.items.map((item: { _id: string }) => item._id);
    expect(new Set(ids).size).toBe(ids.length);
    if (event?.type === 'SEARCH') {
      const { query } = event as unknown as { query: string };
      if (query.trim()) expect(value.list).toBe('debouncing');
      else expect(lastCall(world, 'fetchPage')).toBe('fetchPage {"query":"","cursor":""}');
    }
    if (event?.type === afterSearchDelay)
      expect(lastCall(world, 'fetchPage')).toBe('fetchPage {"query":"ada","cursor":""}');
    if (value.list === 'loadingMore')
      expect(lastCall(world, 'fetchPage')).toBe(
        `fetchPage {"query":"${context.shownQuery}","cursor":"cursor-2"}`,
      );
    if (event?.type === 'xstate.done.actor.updateMember' && ids.includes('m1'))
      expect(context.items.find((item: { _id: string }) => item._id === 'm1').role).toBe('admin');
    if (event?.type === 'xstate.error.actor.updateMember')
      expect(context.changeError).toBe('updateMember failed');
    // Credit: only a non-zero amount with a note is booked, for the member the dialog is about.
    if (value.credit === 'granting')
      expect(lastCall(world, 'grantCredit')).toBe('grantCredit {"id":"m1","amount":5,"note":"Welcome"}');
    // Whole cents, as the server books them: 1.005 is refused before it is sent.
    if (event?.type === 'GRANT' && value.credit === 'open')
      expect(context.problems).toEqual(
        (event as unknown as { amount: string }).amount === '1.005'
          ? [{ field: 'amount', message: 'Enter whole cents: at most two decimals.' }]
          : [expect.objectContaining({ field: 'amount' }), expect.objectContaining({ field: 'note' })],
      );
    if (event?.type === 'xstate.done.actor.grantCredit') {
      expect(value.credit).toBe('granted');
      expect(context.target.balance).toBe(15);
      if (ids.includes('m1'))
        expect(context.items.find((item: { _id: string }) => item._id === 'm1').balance).toBe(15);
    }
    if (event?.type === 'xstate.error.actor.grantCredit')
      expect(context.problems).toEqual([{ field: 'amount', message: 'grantCredit refused amount' }]);
    // Invitations: a valid address, trimmed, with the role chosen; the address is announced once sent.
    if (value.invite === 'inviting')
      expect(lastCall(world, 'inviteMember')).toBe(
        'inviteMember {"email":"grace@example.org","role":"admin"}',
      );
    if (value.invite === 'sent') expect(context.invited).toBe('grace@example.org');
    if (event?.type === 'INVITE' && value.invite === 'open') expect(context.problems[0]?.field).toBe('email');
    if (event?.type === 'RESET') {
      expect(context.items).toEqual([]);
      expect(value).toEqual({ list: 'idle', update: 'idle', credit: 'closed', invite: 'closed' });
    }
  },
};
