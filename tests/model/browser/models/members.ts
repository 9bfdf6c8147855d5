import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { membersMachine } from '../../../../machines/members';
import { call, signUp, type TestServer, uniqueTag } from '../../../support/app';
import { done, failed, failedOn } from '../../models';
import type { BrowserModel, ModelEvent, PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';
import { endsAtLogOut, expectLoggedOut, logOut, networkProblem, openAdmin, showSection } from './adminList';

type Region = 'list' | 'update' | 'credit' | 'invite';
const member = (id: string) => ({
  _id: id,
  displayName: id,
  username: id,
  email: `${id}@example.org`,
  role: 'member' as const,
  status: 'active' as const,
  balance: 10,
});
const afterSearchDelay = 'xstate.after.searchDelay.members.list.debouncing';
const search = 'admin';
const eventRegions: [RegExp, Region][] = [
  [/^(LOAD|RETRY|LOAD_MORE|SEARCH)$|fetch(Page|More)$|searchDelay/, 'list'],
  [/CHANGE_MEMBER|updateMember$/, 'update'],
  [/OPEN_CREDIT|GRANT|grantCredit$/, 'credit'],
  [/INVITE|inviteMember$/, 'invite'],
];
function regionOf(snapshot: AnyMachineSnapshot, event: ModelEvent): Region {
  if (event.type === 'CANCEL')
    return (snapshot.value as Record<Region, string>).credit === 'open' ? 'credit' : 'invite';
  return (eventRegions.find(([pattern]) => pattern.test(event.type)) as [RegExp, Region])[1];
}

/** More members than a page holds (50), so the list pages. */
async function fillMembers(world: PathWorld) {
  const server = world.server as unknown as TestServer;
  for (let batch = 0; batch < 6; batch += 1)
    await Promise.all(Array.from({ length: 9 }, () => signUp(server)));
}

/** A member of the path's own, named to come first in the list. */
async function ownMember(world: PathWorld) {
  const server = world.server as unknown as TestServer;
  const user = await signUp(server);
  const displayName = `Aa ${uniqueTag()}`;
  await call(server, '/api/v1/user/me', {
    method: 'PATCH',
    tenant: 'app',
    token: user.token,
    body: { displayName },
  });
  return displayName;
}

const dialog = (world: PathWorld, name: string) => world.page.getByRole('dialog', { name });

/** The members screen of the seeded owner: search, pages, roles, credit and invitations. */
export const membersBrowserModel: BrowserModel = {
  name: 'members',
  chainWalks: true,
  allows: endsAtLogOut,
  machine: membersMachine,
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'LOAD_MORE' },
    { type: 'SEARCH', query: search },
    { type: 'SEARCH', query: '' },
    { type: afterSearchDelay },
    done('fetchPage', { items: [member('m1')], next: 'cursor' }),
    done('fetchPage', { items: [member('m1')], next: null }),
    failed('fetchPage'),
    done('fetchMore', { items: [member('m2')], next: null }),
    failed('fetchMore'),
    { type: 'CHANGE_MEMBER', id: 'm1', change: { role: 'admin' } },
    done('updateMember', { ...member('m1'), role: 'admin' }),
    failed('updateMember'),
    { type: 'OPEN_CREDIT', member: member('m1') },
    { type: 'GRANT', amount: '5', note: 'Welcome' },
    { type: 'GRANT', amount: '0', note: ' ' },
    { type: 'CANCEL' },
    done('grantCredit', 15),
    failedOn('grantCredit', 'amount'),
    { type: 'OPEN_INVITE' },
    { type: 'INVITE', email: ' grace@example.org ', role: 'admin' },
    { type: 'INVITE', email: 'grace at example', role: 'member' },
    done('inviteMember', { sent: true }),
    failedOn('inviteMember', 'email'),
    { type: 'RESET' },
  ],
  serialize: (snapshot) => {
    const { items, next, query, shownQuery, error, changeError, target, problems, invited } =
      snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.length > 0,
      next !== null,
      query.trim() !== '',
      shownQuery !== '',
      !!error,
      !!changeError,
      !!target,
      problems.map((problem: { field: string }) => problem.field),
      invited !== null,
    ]);
  },
  // One thing at a time, from the first page of the whole list; what a dialog or a change left behind
  // (its member, its address, its problem) keeps that part busy. A search lists one page, the list two.
  possible: (snapshot, event) => {
    const value = snapshot.value as Record<Region, string>;
    const { next, query, shownQuery, error, changeError, target, invited } = snapshot.context;
    const busy = {
      list: value.list !== 'loaded' || !!error || !!shownQuery || !next,
      update: value.update !== 'idle' || !!changeError,
      credit: value.credit !== 'closed' || !!target,
      invite: value.invite !== 'closed' || !!invited,
    };
    if (event.type === 'RESET') return value.list === 'idle';
    if (event.type === 'xstate.done.actor.fetchPage')
      return (event.output as { next: unknown }).next ? !query.trim() : !!query.trim();
    // A search from the first page of the whole list, cleared from its results; a failed first page.
    if (event.type === 'SEARCH')
      return (
        value.list === 'loaded' &&
        !busy.update &&
        !busy.credit &&
        !busy.invite &&
        (event.query ? !!next && !error && !shownQuery : !!shownQuery)
      );
    if (event.type === 'xstate.error.actor.fetchPage') return snapshot.context.items.length === 0;
    const region = regionOf(snapshot, event);
    const others = (Object.keys(busy) as Region[]).filter((other) => other !== region && busy[other]);
    if (region === 'list') return others.length === 0 && (event.type !== 'SEARCH' || value.list === 'loaded');
    return (
      value.list === 'loaded' &&
      (others.length === 0 || (busy[region] && others.every((o) => o === 'list') && !busy.list))
    );
  },
  requests: {
    fetchPage: { method: 'GET', path: /^\/api\/v1\/admin\/member(\?q=[^&]*)?$/ },
    fetchMore: { method: 'GET', path: /^\/api\/v1\/admin\/member\?(q=[^&]*&)?cursor=/ },
    updateMember: { method: 'PATCH', path: /^\/api\/v1\/admin\/member\/[^/]+$/ },
    // Credit below zero and an address that is a member's already are refused by the server.
    grantCredit: { method: 'POST', path: /^\/api\/v1\/admin\/member\/[^/]+\/credit$/, fails: 'server' },
    inviteMember: { method: 'POST', path: /^\/api\/v1\/admin\/member\/invite$/, fails: 'server' },
  },
  start: async (world) => {
    const { events } = world;
    if (!world.shared.filled) world.shared.filled = await fillMembers(world).then(() => true);
    if (events.some((event) => /CHANGE_MEMBER|OPEN_CREDIT/.test(event.type)))
      world.data.member = await ownMember(world);
    world.data.guest = `guest${uniqueTag()}@example.org`;
    await openAdmin(
      world,
      '/admin',
      'Bots',
      events.some((event) => event.type === 'RESET'),
    );
  },
  perform: async (world, event, index) => {
    const { page, events } = world;
    const next = events[index + 1]?.type ?? '';
    const name = world.data.member as string;
    switch (event.type) {
      case 'LOAD':
        await showSection(world, 'Members');
        break;
      case 'RETRY':
        await page.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'LOAD_MORE':
        await page.getByRole('button', { name: 'Load more' }).click();
        break;
      case 'SEARCH':
        await page.getByLabel('Search members').fill(event.query as string);
        break;
      case 'CHANGE_MEMBER':
        await page.getByLabel(`Role: ${name}`).selectOption('admin');
        break;
      case 'OPEN_CREDIT':
        await page.getByRole('button', { name: `Credit ${name}` }).click();
        break;
      case 'GRANT': {
        const credit = dialog(world, 'Grant or deduct credit');
        // More than the balance deducted is refused by the server.
        const amount = event.amount === '0' ? '0' : next.endsWith('error.actor.grantCredit') ? '-1000' : '5';
        await credit.getByLabel('Amount').fill(amount);
        await credit.getByLabel('Note').fill(event.note as string);
        await credit.getByRole('button', { name: 'Book credit' }).click();
        break;
      }
      case 'CANCEL':
        await page.keyboard.press('Escape');
        break;
      case 'OPEN_INVITE':
        await page.getByRole('button', { name: 'Invite' }).click();
        break;
      case 'INVITE': {
        const invite = dialog(world, 'Invite someone');
        const valid = event.role === 'admin';
        // An address that is a member's already is refused by the server.
        const email = !valid
          ? 'guest at example'
          : next.endsWith('error.actor.inviteMember')
            ? 'admin@parley.test'
            : ` ${world.data.guest} `;
        await invite.getByLabel('Email').fill(email);
        await invite.getByLabel('Role').selectOption(valid ? 'admin' : 'member');
        await invite.getByRole('button', { name: 'Send invitation' }).click();
        break;
      }
      case 'RESET':
        await logOut(world);
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { page } = world;
    if (world.data.out) return expectLoggedOut(world);
    const value = snapshot.value as Record<Region, string>;
    const { items, next, query, error, changeError, problems } = snapshot.context;
    await page
      .getByRole('heading', { name: value.list === 'idle' ? 'Bots' : 'Members', level: 1 })
      .waitFor({ timeout: 100 });
    if (value.list === 'idle') return;
    const main = page.getByRole('main');
    expect(await page.getByLabel('Search members').inputValue()).toBe(query);
    const loading = value.list === 'loading' || value.list === 'debouncing';
    if (value.list !== 'debouncing')
      expect(await main.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
        loading && !items.length ? 1 : 0,
      );
    const retry = main.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(value.list === 'failed' ? 1 : 0);
    // The list: busy while read or changed; more pages behind Load more; a failed page said so.
    const table = main.getByRole('table', { name: 'Members', exact: true });
    if (items.length && value.list !== 'debouncing')
      expect(await table.getAttribute('aria-busy')).toBe(
        String(value.list === 'loading' || value.update === 'updating'),
      );
    const more = main.getByRole('button', { name: /^(Load more|Loading…)$/ });
    expect(await more.count()).toBe(next && value.list !== 'failed' ? 1 : 0);
    if (next && value.list !== 'failed') await expectDisabled(more, value.list === 'loadingMore');
    const problem = main.getByRole('alert').filter({ hasText: networkProblem });
    expect(await problem.count()).toBe(
      (value.list === 'failed' || (value.list === 'loaded' && error) ? 1 : 0) + (changeError ? 1 : 0),
    );
    if (value.list === 'loaded' && query.trim())
      expect(await table.getByRole('row').filter({ hasText: search }).count()).toBeGreaterThan(0);
    const name = world.data.member as string | undefined;
    // A search lists only the rows it finds: the path's member is in the whole list.
    if (name && value.list === 'loaded' && !snapshot.context.shownQuery) {
      const role = page.getByLabel(`Role: ${name}`);
      await expectDisabled(role, value.update === 'updating');
      if (snapshot.context.items.some((item: { role: string }) => item.role === 'admin') && !changeError)
        expect(await role.inputValue()).toBe('admin');
    }
    // Credit: the dialog, its problems next to the fields, the new balance announced.
    const credit = dialog(world, 'Grant or deduct credit');
    const creditOpen = value.credit === 'open' || value.credit === 'granting';
    expect(await credit.count()).toBe(creditOpen ? 1 : 0);
    const fields = problems.map((item: { field: string }) => item.field);
    // A refused dialog has the keyboard on its first problem (so Escape still closes it).
    const focusedProblem = () => page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'));
    if (fields.length && (value.credit === 'open' || value.invite === 'open'))
      expect(await focusedProblem()).toBe('true');
    if (creditOpen) {
      await expectDisabled(credit.getByRole('button', { name: 'Book credit' }), value.credit === 'granting');
      for (const [field, label] of [
        ['amount', 'Amount'],
        ['note', 'Note'],
      ]) {
        const input = credit.getByLabel(label);
        if (fields.includes(field))
          expect(await errorOf(input)).toMatch(
            field === 'amount' && fields.length === 1 ? /below zero/ : /./,
          );
        else expect(await input.getAttribute('aria-invalid')).toBeNull();
      }
    }
    const status = main.getByRole('status').filter({ hasText: /^(New balance of|Invitation sent to)/ });
    expect(await status.count()).toBe(value.credit === 'granted' || value.invite === 'sent' ? 1 : 0);
    if (value.credit === 'granted')
      expect(await status.textContent()).toMatch(new RegExp(`^New balance of ${name}: .*15`));
    // Invitations: the dialog, its address checked, the address announced once mailed.
    const invite = dialog(world, 'Invite someone');
    const inviteOpen = value.invite === 'open' || value.invite === 'inviting';
    expect(await invite.count()).toBe(inviteOpen ? 1 : 0);
    if (inviteOpen) {
      await expectDisabled(
        invite.getByRole('button', { name: 'Send invitation' }),
        value.invite === 'inviting',
      );
      const email = invite.getByLabel('Email');
      if (fields.includes('email')) expect(await errorOf(email)).toMatch(/valid email|member already/);
      else expect(await email.getAttribute('aria-invalid')).toBeNull();
    }
    if (value.invite === 'sent')
      expect(await status.textContent()).toBe(`Invitation sent to ${world.data.guest}`);
  },
};
