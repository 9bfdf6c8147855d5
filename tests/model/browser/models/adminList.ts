import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { adminListMachine } from '../../../../machines/adminList';
import { sensitiveFields } from '../../../../server/plugins/decryptFields';
import { type CallOptions, call, encrypter, type TestServer } from '../../../support/app';
import { done, failed } from '../../models';
import { type BrowserModel, type ModelPath, nothingAfter, type PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';

// What the admin machines' models share: the seeded owner of `app`, the API as they call it, the area.

/** The seeded owner's token, logged in once per file (or afresh for a path that logs out). */
export async function ownerToken(world: PathWorld, fresh = false) {
  const server = world.server as unknown as TestServer;
  world.shared.encrypt ??= await encrypter(server);
  const encrypt = world.shared.encrypt as (value: string) => string;
  const login = async () =>
    (
      await call(server, '/auth/login', {
        tenant: 'app',
        body: { email: encrypt('admin@parley.test'), password: encrypt('parley-admin-1') },
      })
    ).body.token as string;
  if (fresh) return login();
  world.shared.ownerToken ??= await login();
  return world.shared.ownerToken as string;
}

/** An admin call as the owner; the fields the app encrypts are encrypted. */
export async function asOwner(world: PathWorld, path: string, options: CallOptions = {}) {
  const token = await ownerToken(world);
  const body = options.body as Record<string, unknown> | undefined;
  const answer = await call(world.server as unknown as TestServer, path, {
    ...options,
    body:
      body &&
      Object.fromEntries(
        Object.entries(body).map(([key, value]) => [
          key,
          sensitiveFields.includes(key) && typeof value === 'string' ? encrypt(world, value) : value,
        ]),
      ),
    tenant: 'app',
    token,
  });
  if (answer.status >= 400) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}
export const encrypt = (world: PathWorld, value: string) =>
  (world.shared.encrypt as (value: string) => string)(value);

/** Opens the admin area at `path` as the owner, in a fresh browser. */
export async function openAdmin(world: PathWorld, path: string, heading: string, fresh = false) {
  const token = await ownerToken(world, fresh);
  await world.context.addInitScript((value) => localStorage.setItem('token', value), token);
  await world.page.goto(`${world.server.url}${path}`);
  await world.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

export const adminNav = (world: PathWorld, name: string) =>
  world.page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name, exact: true });

/** A section of the admin area shown (again): from another one, after the first time. */
export async function showSection(world: PathWorld, name: string) {
  if (world.data.shown) await adminNav(world, 'Bots').click();
  await adminNav(world, name).click();
  world.data.shown = true;
}

/**
 * A form of the admin area (settings, sign-in) as its machine loads it: Bots until the section is
 * shown, then its heading, Loading… while it loads, the network's problem with Retry if that failed.
 * True once the form is there to check.
 */
export async function expectFormLoaded(world: PathWorld, snapshot: AnyMachineSnapshot, heading: string) {
  const { page } = world;
  const main = page.getByRole('main');
  await page
    .getByRole('heading', { name: snapshot.matches('idle') ? 'Bots' : heading, level: 1 })
    .waitFor({ timeout: 100 });
  if (snapshot.matches('idle')) return false;
  expect(await main.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
    snapshot.matches('loading') ? 1 : 0,
  );
  const retry = main.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) });
  expect(await retry.count()).toBe(snapshot.matches('failed') ? 1 : 0);
  if (snapshot.matches('failed')) expect(await retry.textContent()).toMatch(networkProblem);
  return snapshot.matches('ready');
}

/** Logging out, as a person does it: back to the chats, the profile panel, Log out. */
export async function logOut(world: PathWorld) {
  const { page } = world;
  await page.getByRole('link', { name: 'Back to chats' }).click();
  await page
    .getByRole('navigation', { name: 'Side panel' })
    .getByRole('button', { name: /^Profile/ })
    .click();
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  world.data.out = true;
}
/** Logging out leaves the admin area: nothing a path does there follows it. */
export const endsAtLogOut = (path: ModelPath) => nothingAfter(path, (event) => event.type === 'RESET');
export async function expectLoggedOut(world: PathWorld) {
  expect(new URL(world.page.url()).pathname).toBe('/landing');
  expect(await world.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
}

export const networkProblem = /Cannot reach the server/;

// The categories screen walks every state of a list but its pages (one page); the audit log pages.
const category = (id: string) => ({ _id: id, name: id });
const notices = { create: 'Category created', update: 'Category renamed', remove: 'Category deleted' };
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const onAudit = (snapshot: AnyMachineSnapshot) =>
  snapshot.context.items.some((item: { _id: string }) => item._id.startsWith('audit'));
const changeEvents = /^(EDIT|SAVE|ASK_REMOVE|CONFIRM|CANCEL)$|(saveChange|removeRecord)$/;

/** At least two pages of audit entries: a category renamed 51 times. */
async function fillAuditLog(world: PathWorld) {
  const name = `Audit ${unique()}`;
  const { _id: id } = await asOwner(world, '/api/v1/admin/category', { body: { name } });
  for (let index = 0; index < 51; index += 1)
    await asOwner(world, `/api/v1/admin/category/${id}`, {
      method: 'PATCH',
      body: { name: `${name} ${index}` },
    });
}

const rows = (world: PathWorld) => world.page.getByRole('list', { name: 'Categories' });
const row = (world: PathWorld, name: string) =>
  rows(world)
    .getByRole('listitem')
    .filter({ has: world.page.getByRole('button', { name: `Rename ${name}` }) });

/**
 * The categories screen (and, for its pages, the audit log) of the seeded owner, driven by the admin
 * navigation, the forms, the row buttons and the keyboard.
 */
export const adminListBrowserModel: BrowserModel = {
  name: 'adminList',
  chainWalks: true,
  allows: endsAtLogOut,
  machine: adminListMachine,
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'LOAD_MORE' },
    done('fetchPage', { items: [category('k1')], next: null }),
    done('fetchPage', { items: [category('audit1')], next: 'cursor' }),
    failed('fetchPage'),
    done('fetchMore', { items: [category('audit2')], next: null }),
    failed('fetchMore'),
    { type: 'EDIT', id: 'k1' },
    { type: 'SAVE', change: { kind: 'create', values: { name: 'New' } } },
    { type: 'SAVE', change: { kind: 'update', id: 'k1', values: { name: 'Renamed' } } },
    { type: 'ASK_REMOVE', record: category('k1') },
    { type: 'CONFIRM' },
    { type: 'CANCEL' },
    done('saveChange'),
    failed('saveChange'),
    done('removeRecord'),
    failed('removeRecord'),
    { type: 'RESET' },
  ],
  serialize: (snapshot) => {
    const { items, next, error, editing, target, problem, done: last } = snapshot.context;
    const listed = items.length > 0;
    return JSON.stringify([
      snapshot.value,
      onAudit(snapshot),
      listed,
      next,
      !!error,
      editing,
      !!target,
      !!problem,
      last,
    ]);
  },
  // The audit log only pages; the categories change one at a time, each then read afresh and done.
  possible: (snapshot, event) => {
    const { list, change } = snapshot.value as Record<string, string>;
    const { items, editing, done: last } = snapshot.context;
    if (event.type === 'RESET') return list === 'idle';
    if (event.type.endsWith('done.actor.fetchPage') && (event.output as { next: unknown }).next)
      return items.length === 0 && !snapshot.context.error;
    if (last) return event.type.endsWith('done.actor.fetchPage');
    if (onAudit(snapshot)) return /LOAD_MORE|fetchMore$/.test(event.type);
    if (event.type === 'LOAD') return list === 'idle' || (change === 'idle' && list !== 'loading');
    if (!changeEvents.test(event.type)) return true;
    if (list !== 'loaded') return false;
    // A new category's field stays on the page: there is nothing to cancel.
    if (event.type === 'EDIT' || event.type === 'CANCEL') return editing !== 'new';
    if (event.type === 'SAVE') {
      const kind = (event.change as { kind: string }).kind;
      return kind === 'create'
        ? change === 'idle' || editing === 'new'
        : change === 'editing' && editing !== 'new';
    }
    return true;
  },
  requests: {
    fetchPage: { method: 'GET', path: /^\/api\/v1\/admin\/(category|audit)$/ },
    fetchMore: { method: 'GET', path: /^\/api\/v1\/admin\/audit\?cursor=/ },
    // A name taken already is refused by the server, next to the field.
    saveChange: { method: 'POST|PATCH', path: /^\/api\/v1\/admin\/category(\/[^/]+)?$/, fails: 'server' },
    removeRecord: { method: 'DELETE', path: /^\/api\/v1\/admin\/category\/[^/]+$/ },
  },
  start: async (world) => {
    const { events } = world;
    // The audit log: a path whose first page has a next one.
    const audit = events.some((event) => !!(event.output as { next?: unknown } | undefined)?.next);
    world.data.screen = audit ? 'audit' : 'categories';
    if (audit && !world.shared.auditFilled)
      world.shared.auditFilled = await fillAuditLog(world).then(() => true);
    // A path that changes categories has two of its own.
    if (events.some((event) => /^(EDIT|ASK_REMOVE)$/.test(event.type))) {
      const names = [`Sonnets ${unique()}`, `Odes ${unique()}`];
      for (const name of names) await asOwner(world, '/api/v1/admin/category', { body: { name } });
      world.data.names = names;
    }
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
    const names = world.data.names as string[];
    // Focus given back by Escape is checked until the person does something else.
    if (!event.type.startsWith('xstate.')) delete world.data.focusBack;
    switch (event.type) {
      case 'LOAD':
        await showSection(world, world.data.screen === 'audit' ? 'Audit log' : 'Categories');
        break;
      case 'RETRY':
        await page.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'LOAD_MORE':
        await page.getByRole('button', { name: 'Load more' }).click();
        break;
      case 'EDIT': {
        // Another row while one is being renamed.
        world.data.row = world.data.row === names[0] ? names[1] : names[0];
        await page.getByRole('button', { name: `Rename ${world.data.row}` }).click();
        break;
      }
      case 'SAVE': {
        const taken = next.endsWith('error.actor.saveChange');
        if ((event.change as { kind: string }).kind === 'create') {
          world.data.created = taken ? 'Writing' : `Limericks ${unique()}`;
          await page.getByLabel('New category').fill(world.data.created as string);
          await page.getByRole('button', { name: 'Create' }).click();
        } else {
          const other = names.find((name) => name !== world.data.row) as string;
          world.data.renamed = taken ? other : `${world.data.row} II`;
          await page.getByLabel('New name').fill(world.data.renamed as string);
          await rows(world).getByRole('button', { name: 'Save' }).click();
        }
        break;
      }
      case 'ASK_REMOVE':
        world.data.row = names[0];
        await page.getByRole('button', { name: `Delete ${names[0]}` }).click();
        break;
      case 'CONFIRM':
        await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
        break;
      case 'CANCEL': {
        const asked = (await page.getByRole('alertdialog').count()) > 0;
        world.data.focusBack = `${asked ? 'Delete' : 'Rename'} ${world.data.row}`;
        await page.keyboard.press('Escape');
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
    const { list, change } = snapshot.value as Record<string, string>;
    const { items, next, error, editing, problem, done: last } = snapshot.context;
    const heading = list === 'idle' ? 'Bots' : world.data.screen === 'audit' ? 'Audit log' : 'Categories';
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: 100 });
    if (list === 'idle') return;
    const main = page.getByRole('main');
    expect(await main.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      list === 'loading' && items.length === 0 ? 1 : 0,
    );
    const retry = main.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(list === 'failed' ? 1 : 0);
    if (list === 'failed') expect(await retry.textContent()).toMatch(networkProblem);
    if (world.data.screen === 'audit') {
      const more = main.getByRole('button', { name: /Load more|Loading…/ });
      expect(await more.count()).toBe(next ? 1 : 0);
      if (next) expect(await more.textContent()).toBe(list === 'loadingMore' ? 'Loading…' : 'Load more');
      if (list === 'loaded')
        expect(await main.getByRole('table').getByRole('row').count()).toBeGreaterThan(50);
      // A next page that failed says so; the list stays.
      const problem = main.getByRole('alert').filter({ hasText: networkProblem });
      expect(await problem.count()).toBe(list === 'loaded' && error ? 1 : 0);
      return;
    }
    if (list === 'loaded') expect(await rows(world).getByRole('listitem').count()).toBeGreaterThan(0);
    // What the last change did is announced; once read afresh, the list shows it.
    const announced = main.getByRole('status').filter({ hasText: /^Category (created|renamed|deleted)$/ });
    expect(await announced.count()).toBe(last ? 1 : 0);
    if (last) expect(await announced.textContent()).toBe(notices[last as keyof typeof notices]);
    if (list === 'loaded' && last === 'create')
      await row(world, world.data.created as string).waitFor({ timeout: 100 });
    if (list === 'loaded' && last === 'update')
      await row(world, world.data.renamed as string).waitFor({ timeout: 100 });
    if (list === 'loaded' && last === 'remove')
      expect(await row(world, world.data.row as string).count()).toBe(0);

    const creating = editing === 'new';
    await expectDisabled(page.getByRole('button', { name: 'Create' }), change === 'saving');
    const createField = page.getByLabel('New category');
    if (creating && problem) expect(await errorOf(createField)).toMatch(/exists already/);
    else expect(await createField.getAttribute('aria-invalid')).toBeNull();

    const renaming = (change === 'editing' || change === 'saving') && !creating;
    const nameField = page.getByLabel('New name');
    expect(await nameField.count()).toBe(renaming ? 1 : 0);
    if (renaming) {
      expect(await row(world, world.data.row as string).count()).toBe(0);
      await expectDisabled(rows(world).getByRole('button', { name: 'Save' }), change === 'saving');
      if (change === 'editing' && !problem)
        expect(await nameField.evaluate((field) => field === document.activeElement)).toBe(true);
      if (problem) expect(await errorOf(nameField)).toMatch(/exists already/);
    } else if (world.data.focusBack && change === 'idle') {
      // Escape gives focus back to what opened the form or the dialog.
      const opener = page.getByRole('button', { name: world.data.focusBack as string });
      expect(await opener.evaluate((button) => button === document.activeElement)).toBe(true);
    }

    const dialog = page.getByRole('alertdialog', { name: 'Delete this category?' });
    const confirming = change === 'confirming' || change === 'removing';
    expect(await dialog.count()).toBe(confirming ? 1 : 0);
    if (confirming) {
      await expectDisabled(dialog.getByRole('button', { name: 'Delete' }), change === 'removing');
      expect(await dialog.getByRole('alert').count()).toBe(problem ? 1 : 0);
      if (problem) expect(await dialog.getByRole('alert').textContent()).toMatch(networkProblem);
    }
  },
};
