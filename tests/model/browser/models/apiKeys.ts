import { expect } from 'vitest';
import { type ApiKey, apiKeysMachine, type CreatedKey, type KeyProblem } from '../../../../machines/apiKeys';
import { signUp } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';
import { asOwner, networkProblem } from './adminList';
import { apiOf, openProfile, storeToken } from './session';

const turnedOff = 'API access is turned off for this organization. Ask an administrator of the organization.';
const created: CreatedKey = {
  _id: 'k1',
  name: 'Deploy script',
  createdAt: '2026-01-02T03:04:05.000Z',
  expiresAt: '2999-12-31T23:59:59.999Z',
  lastUsedAt: null,
  last4: 'wxyz',
  key: 'pk-parley-wxyz',
};
// The machine checks the date against the member's day: these two are past and future on any day.
const today = '2026-01-02';

const section = ({ page }: PathWorld) =>
  page.getByRole('complementary').getByRole('region', { name: 'API keys' });
const newKeyDialog = ({ page }: PathWorld) => page.getByRole('alertdialog', { name: 'Your new API key' });
const revokeDialog = ({ page }: PathWorld) => page.getByRole('alertdialog', { name: 'Revoke API key' });
const turnsOff = (events: { type: string; output?: unknown }[]) =>
  events.some(
    (event) => event.type === 'xstate.done.actor.listKeys' && 'turnedOff' in (event.output as object),
  );

/**
 * The API keys section of the Profile panel of a new member (each path its own, so the list is what the
 * path made): the list, the form, the new key's dialog and the Revoke confirmation; each request held
 * until the path ends it. The organization's API access is off for the paths that show it so.
 */
export const apiKeysBrowserModel: BrowserModel = {
  name: 'apiKeys',
  chainWalks: true,
  machine: apiKeysMachine,
  events: [
    done('listKeys', { keys: [] }),
    done('listKeys', { turnedOff }),
    failed('listKeys'),
    { type: 'RETRY' },
    { type: 'CREATE', name: '', expiresAt: '', today },
    { type: 'CREATE', name: created.name, expiresAt: '2000-01-01', today },
    { type: 'CREATE', name: created.name, expiresAt: '2999-12-31', today },
    done('createKey', created),
    failed('createKey'),
    { type: 'DISMISS' },
    { type: 'ASK_REVOKE', id: created._id },
    { type: 'CANCEL_REVOKE' },
    { type: 'REVOKE' },
    done('revokeKey'),
    failed('revokeKey'),
  ],
  serialize: (snapshot) => {
    const { keys, problems, newKey, revoking, error } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      keys.map((key: ApiKey) => key._id),
      problems.map((problem: KeyProblem) => problem.field),
      !!newKey,
      revoking?._id ?? null,
      !!error,
    ]);
  },
  // One key at a time, made from an empty list; a refused form is fixed before another mistake.
  possible: (snapshot, event) => {
    const { keys, problems } = snapshot.context as { keys: ApiKey[]; problems: KeyProblem[] };
    if (event.type !== 'CREATE') return true;
    if (keys.length > 0) return false;
    return event.expiresAt === '2999-12-31' || problems.length === 0;
  },
  requests: {
    listKeys: { method: 'GET', path: /^\/api\/v1\/user\/me\/key$/ },
    createKey: { method: 'POST', path: /^\/api\/v1\/user\/me\/key$/ },
    revokeKey: { method: 'DELETE', path: /^\/api\/v1\/user\/me\/key\/[^/?]+$/ },
  },
  start: async (world) => {
    // The organization's switch as this path needs it (paths run one after another).
    const off = turnsOff(world.events);
    if (world.shared.off !== off) {
      await asOwner(world, '/api/v1/admin/settings', { method: 'PATCH', body: { apiAccess: !off } });
      world.shared.off = off;
    }
    const member = await signUp(apiOf(world));
    await storeToken(world, member.token);
    await world.page.goto(`${world.server.url}/list`);
    await openProfile(world);
    await section(world).waitFor();
  },
  perform: async (world, event) => {
    const form = section(world);
    switch (event.type) {
      case 'RETRY':
        await form.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'CREATE':
        await form.getByLabel('Name', { exact: true }).fill(event.name as string);
        await form.getByLabel('Expires on (optional)').fill(event.expiresAt as string);
        await form.getByRole('button', { name: 'Create key' }).click();
        break;
      case 'DISMISS':
        await newKeyDialog(world).getByRole('button', { name: 'Done' }).click();
        break;
      case 'ASK_REVOKE':
        await form.getByRole('button', { name: `Revoke ${created.name}` }).click();
        break;
      case 'CANCEL_REVOKE':
        await revokeDialog(world).getByRole('button', { name: 'Cancel' }).click();
        break;
      case 'REVOKE':
        await revokeDialog(world).getByRole('button', { name: 'Revoke', exact: true }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const form = section(world);
    await form.waitFor({ timeout: 100 });
    const { keys, problems, newKey, revoking, error } = snapshot.context as {
      keys: ApiKey[];
      problems: KeyProblem[];
      newKey: string | null;
      revoking: ApiKey | null;
      error: string | null;
    };
    expect(await form.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      snapshot.matches('loading') ? 1 : 0,
    );
    const retry = form.getByRole('alert').filter({ has: world.page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(snapshot.matches('failed') ? 1 : 0);
    if (snapshot.matches('failed')) expect(await retry.textContent()).toMatch(networkProblem);
    // Turned off: the server's sentence, and no form to make a key that could not be used.
    expect(await form.getByText(turnedOff).count()).toBe(snapshot.matches('turnedOff') ? 1 : 0);
    const create = form.getByRole('button', { name: /^(Create key|Creating…)$/ });
    expect(await create.count()).toBe(snapshot.matches('turnedOff') ? 0 : 1);
    if (snapshot.hasTag('listed')) {
      // Each key with its name, last four characters and its own Revoke; none: says so.
      const items = form.getByRole('listitem');
      expect(await items.count()).toBe(keys.length);
      expect(await form.getByText('No API keys yet.').count()).toBe(keys.length === 0 ? 1 : 0);
      for (const key of keys) {
        const item = items.filter({ hasText: key.name });
        expect(await item.textContent()).toMatch(/…[\w-]{4}/);
        expect(await item.textContent()).toMatch(/Expires/);
        expect(await item.getByRole('button', { name: `Revoke ${key.name}` }).count()).toBe(1);
      }
      // Each problem at its field; one about no field (the network) for the form as a whole.
      for (const [field, label] of [
        ['name', 'Name'],
        ['expiresAt', 'Expires on (optional)'],
      ] as const) {
        const input = form.getByLabel(label, { exact: true });
        const problem = problems.find((item) => item.field === field);
        if (problem) expect(await errorOf(input)).toMatch(problem.message);
        else expect(await input.getAttribute('aria-invalid')).toBeNull();
      }
      const formProblem = problems.some((problem) => problem.field === null);
      const alert = form.locator('form').getByRole('alert');
      expect(await alert.count()).toBe(formProblem ? 1 : 0);
      if (formProblem) expect(await alert.textContent()).toMatch(networkProblem);
      await expectDisabled(create, snapshot.matches('creating'));
    }
    // The new key once, in its dialog, with Copy and the warning.
    const shown = newKeyDialog(world);
    expect(await shown.count()).toBe(newKey ? 1 : 0);
    if (newKey) {
      expect(await shown.getByRole('textbox', { name: 'API key' }).inputValue()).toMatch(
        /^pk-parley-[\w-]{43}$/,
      );
      expect(await shown.getByRole('button', { name: /^Copy/ }).count()).toBe(1);
      expect(await shown.textContent()).toContain('you will not see it again');
    }
    // Revoking asks first, names the key, and tells a failure in the dialog.
    const asking = revokeDialog(world);
    expect(await asking.count()).toBe(revoking ? 1 : 0);
    if (revoking) {
      expect(await asking.textContent()).toContain(revoking.name);
      await expectDisabled(
        asking.getByRole('button', { name: 'Revoke', exact: true }),
        snapshot.matches('revoking'),
      );
      const problem = asking.getByRole('alert');
      expect(await problem.count()).toBe(error ? 1 : 0);
      if (error) expect(await problem.textContent()).toMatch(networkProblem);
    }
  },
};
