import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type AccountSection, accountMachine } from '../../../../machines/account';
import { call, signUp, type TestServer } from '../../../support/app';
import { readCode } from '../../../support/outbox';
import { done, failed } from '../../models';
import { type BrowserModel, type ModelEvent, type ModelPath, nothingAfter, type PathWorld } from '../runner';

type User = Awaited<ReturnType<typeof signUp>>;
const regions: AccountSection[] = ['profile', 'password', 'sessions', 'data', 'deletion', 'recovery'];
const resting: Record<AccountSection, string> = {
  profile: 'idle',
  password: 'idle',
  sessions: 'idle',
  data: 'idle',
  deletion: 'closed',
  recovery: 'askingEmail',
};
/** The section an event is about (`session` for the end of the session, which concerns them all). */
const eventRegions: Record<string, AccountSection | 'session'> = {
  SAVE_PROFILE: 'profile',
  updateProfile: 'profile',
  CHANGE_PASSWORD: 'password',
  changePassword: 'password',
  LOG_OUT_EVERYWHERE: 'sessions',
  logoutEverywhere: 'sessions',
  DOWNLOAD_DATA: 'data',
  exportData: 'data',
  ASK_TO_DELETE: 'deletion',
  CANCEL_DELETE: 'deletion',
  DELETE_ACCOUNT: 'deletion',
  deleteAccount: 'deletion',
  SESSION_ENDED: 'session',
};
const regionOf = (event: ModelEvent) =>
  eventRegions[event.type.replace(/^xstate\.\w+\.actor\./, '')] ?? 'recovery';
const isRecovery = (event: ModelEvent) => regionOf(event) === 'recovery';
const newPassword = 'a brand new password';

const panel = ({ page }: PathWorld) => page.getByRole('complementary');
const section = (world: PathWorld, name: string) => panel(world).getByRole('region', { name });
const user = (world: PathWorld) => world.data.user as User;

/** A field's error, read as assistive technology reads it: through aria-describedby. */
export async function errorOf(field: Locator) {
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  return field.evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}
const expectStatus = async (within: Locator, text: string | null) =>
  expect((await within.getByRole('status').textContent()) ?? '').toBe(text ?? '');
export const expectDisabled = async (button: Locator, disabled: boolean) =>
  expect(await button.isDisabled()).toBe(disabled);

/** The last user's token, as the browser keeps it. */
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

async function login(world: PathWorld, account: User) {
  const { body } = await call(world.server as unknown as TestServer, '/auth/login', {
    tenant: 'app',
    body: { email: account.encrypt(account.email), password: account.encrypt(account.password) },
  });
  return body.token as string;
}

/** Events after which the panel is gone: signed out, account deleted, or logged in from /forgot. */
const leavesScreen = /^(SESSION_ENDED|xstate\.done\.actor\.(logoutEverywhere|deleteAccount|resetPassword))$/;
/**
 * A walk stays on one screen (the panel of a signed-in user, or /forgot of a visitor) and nothing
 * follows what leaves it: its start opens the screen its events need.
 */
function staysOnItsScreen(path: ModelPath) {
  const events = path.steps.slice(1).map((step) => step.event);
  const recovery = events.filter(isRecovery).length;
  return (
    nothingAfter(path, (event) => leavesScreen.test(event.type)) &&
    (recovery === 0 || recovery === events.length)
  );
}

/**
 * The account's sections in the profile side panel of a signed-in user, and the forgotten-password
 * screen (/forgot) of a signed-out visitor.
 */
export const accountBrowserModel: BrowserModel = {
  name: 'account',
  machine: accountMachine,
  events: [
    { type: 'SAVE_PROFILE', changes: { displayName: 'Renamed' } },
    done('updateProfile'),
    failed('updateProfile'),
    { type: 'CHANGE_PASSWORD', password: 'current', newPassword },
    done('changePassword', 'token'),
    failed('changePassword'),
    { type: 'LOG_OUT_EVERYWHERE' },
    done('logoutEverywhere'),
    failed('logoutEverywhere'),
    { type: 'DOWNLOAD_DATA' },
    done('exportData'),
    failed('exportData'),
    { type: 'ASK_TO_DELETE' },
    { type: 'CANCEL_DELETE' },
    { type: 'DELETE_ACCOUNT', password: 'current' },
    done('deleteAccount'),
    failed('deleteAccount'),
    { type: 'SEND_RESET_CODE', email: 'user@example.org' },
    { type: 'ENTER_CODE', email: 'user@example.org' },
    done('sendResetCode'),
    failed('sendResetCode'),
    { type: 'CHANGE_EMAIL' },
    { type: 'RESET_PASSWORD', otp: '123456', password: newPassword },
    done('resetPassword', 'token'),
    failed('resetPassword'),
    { type: 'SESSION_ENDED' },
  ],
  serialize: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.problems]),
  // One section at a time: another starts once the last is at rest without a problem. The forgotten-
  // password screen is for the signed-out, so nothing of the profile panel happens there.
  possible: (snapshot, event) => {
    const value = snapshot.value as Record<AccountSection, string>;
    const problems = snapshot.context.problems as Record<string, unknown>;
    const busy = regions.filter((region) => value[region] !== resting[region] || problems[region]);
    const region = regionOf(event);
    if (region === 'recovery') return busy.every((other) => other === 'recovery');
    if (busy.includes('recovery')) return false;
    return region === 'session' || busy.length === 0 || busy.includes(region);
  },
  allows: staysOnItsScreen,
  chainWalks: true,
  requests: {
    updateProfile: { method: 'PATCH', path: /^\/api\/v1\/user\/me$/, fails: 'server' },
    exportData: { method: 'GET', path: /^\/api\/v1\/user\/me\/export$/ },
    // A wrong password ends the session at once (401, to welcome): the dialog's problem is a network one.
    deleteAccount: { method: 'DELETE', path: /^\/api\/v1\/user\/me$/ },
    changePassword: { method: 'POST', path: /^\/auth\/password\/change$/, fails: 'server' },
    logoutEverywhere: { method: 'POST', path: /^\/auth\/logout-everywhere$/ },
    sendResetCode: { method: 'POST', path: /^\/auth\/password\/forgot$/, fails: 'server' },
    resetPassword: { method: 'POST', path: /^\/auth\/password\/reset$/, fails: 'server' },
  },
  start: async (world) => {
    const { page, events, server } = world;
    // The password changes, every session ends or the account goes: a fresh account; else the file's own.
    const spends = events.some((event) =>
      /done\.actor\.(changePassword|deleteAccount|resetPassword|logoutEverywhere)$/.test(event.type),
    );
    world.shared.user ??= await signUp(server as unknown as TestServer);
    const account = spends ? await signUp(server as unknown as TestServer) : (world.shared.user as User);
    world.data.user = account;
    if (events.some(isRecovery)) {
      world.data.where = 'forgot';
      await page.goto(`${server.url}/forgot`);
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      return;
    }
    world.data.where = 'panel';
    // Logging out ends the session: that path logs in afresh; the others share the file's session.
    const ends = events.some((event) => event.type === 'SESSION_ENDED');
    const token = ends && !spends ? await login(world, account) : account.token;
    world.data.token = token;
    await world.context.addInitScript((value) => localStorage.setItem('token', value), token);
    await page.goto(`${server.url}/list`);
    await page
      .getByRole('navigation', { name: 'Side panel' })
      .getByRole('button', { name: /^Profile/ })
      .click();
    await section(world, 'Edit profile').waitFor();
  },
  perform: async (world, event, index) => {
    const { page, events } = world;
    const next = events[index + 1]?.type ?? '';
    const me = user(world);
    // Focus is back on "Delete my account" only until the next step.
    world.data.cancelled = event.type === 'CANCEL_DELETE';
    switch (event.type) {
      case 'SAVE_PROFILE': {
        const profile = section(world, 'Edit profile');
        // A username the server refuses, or a new display name.
        if (next.endsWith('error.actor.updateProfile'))
          await profile.getByLabel('Username').fill('not allowed!');
        else {
          world.data.newName = `${me.displayName} ${index + 2}`;
          await profile.getByLabel('Display name').fill(world.data.newName as string);
        }
        await profile.getByRole('button', { name: 'Save' }).click();
        break;
      }
      case 'CHANGE_PASSWORD': {
        const form = section(world, 'Change password');
        const wrong = next.endsWith('error.actor.changePassword');
        await form.getByLabel('Current password').fill(wrong ? 'not my password' : me.password);
        await form.getByLabel('New password').fill(newPassword);
        await form.getByRole('button', { name: 'Change password' }).click();
        break;
      }
      case 'LOG_OUT_EVERYWHERE':
        await section(world, 'Sessions').getByRole('button', { name: 'Log out everywhere' }).click();
        break;
      case 'SESSION_ENDED':
        await section(world, 'Sessions').getByRole('button', { name: 'Log out', exact: true }).click();
        world.data.where = 'out';
        break;
      case 'DOWNLOAD_DATA':
        page.once('download', (download) => {
          world.data.file = download.suggestedFilename();
        });
        await section(world, 'Your data').getByRole('button', { name: 'Download my data' }).click();
        break;
      case 'ASK_TO_DELETE':
        await section(world, 'Your data').getByRole('button', { name: 'Delete my account' }).click();
        break;
      case 'CANCEL_DELETE':
        await page.keyboard.press('Escape');
        break;
      case 'DELETE_ACCOUNT': {
        const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
        await dialog.getByLabel('Password').fill(me.password);
        await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
        break;
      }
      case 'xstate.done.actor.logoutEverywhere':
      case 'xstate.done.actor.deleteAccount':
        world.data.where = 'out';
        world.data.deleted = event.type.endsWith('deleteAccount');
        break;
      case 'SEND_RESET_CODE':
        await page
          .getByLabel('Email')
          .fill(next.endsWith('error.actor.sendResetCode') ? 'user at example' : me.email);
        await page.getByRole('button', { name: 'Send code' }).click();
        break;
      case 'ENTER_CODE':
        // The code was mailed before (by an earlier request, or the operator).
        await call(world.server as unknown as TestServer, '/auth/password/forgot', {
          tenant: 'app',
          body: { email: me.encrypt(me.email) },
        });
        await page.getByLabel('Email').fill(me.email);
        await page.getByRole('button', { name: 'I already have a code' }).click();
        break;
      case 'CHANGE_EMAIL':
        await page.getByRole('button', { name: 'Use another email address' }).click();
        break;
      case 'RESET_PASSWORD':
        await page
          .getByLabel('One-time code')
          .fill(
            next.endsWith('error.actor.resetPassword')
              ? '000000'
              : await readCode(world.server.dataDir, me.email),
          );
        await page.getByLabel('New password').fill(newPassword);
        await page.getByRole('button', { name: 'Set new password' }).click();
        break;
      case 'xstate.done.actor.updateProfile':
        me.displayName = world.data.newName as string;
        break;
      case 'xstate.done.actor.changePassword':
        me.password = newPassword;
        break;
      case 'xstate.done.actor.resetPassword':
        world.data.where = 'home';
        break;
    }
  },
  expectScreen: async (world, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    const value = snapshot.value as Record<AccountSection, string>;
    const problems = snapshot.context.problems as Partial<Record<AccountSection, { message: string }>>;
    const me = user(world);
    const path = new URL(page.url()).pathname;
    if (world.data.where === 'out') {
      expect(path).toBe('/landing');
      expect(await storedToken(page)).toBeNull();
      // A deleted account cannot log in again.
      if (world.data.deleted)
        expect(
          (
            await call(world.server as unknown as TestServer, '/auth/login', {
              tenant: 'app',
              body: { email: me.encrypt(me.email), password: me.encrypt(me.password) },
            })
          ).status,
        ).toBe(401);
      return;
    }
    if (world.data.where === 'home') {
      // The new password logged the user in.
      expect(path).toBe('/list');
      await page.getByRole('heading', { name: `Hello, ${me.displayName}` }).waitFor({ timeout: 100 });
      expect(await storedToken(page)).not.toBeNull();
      return;
    }
    if (world.data.where === 'forgot') {
      expect(path).toBe('/forgot');
      const step = value.recovery;
      const codeStep = step === 'askingCode' || step === 'resetting';
      expect(await page.getByLabel('One-time code').count()).toBe(codeStep ? 1 : 0);
      await expectStatus(
        page.getByRole('main'),
        codeStep
          ? 'If an account uses this address, we emailed it a 6-digit code. It is valid for 10 minutes.'
          : null,
      );
      if (codeStep) {
        await expectDisabled(page.getByRole('button', { name: 'Set new password' }), step === 'resetting');
        // (A problem of the address, from an earlier send, belongs to the step before.)
        if (problems.recovery?.message.startsWith('resetPassword'))
          expect(await errorOf(page.getByLabel('One-time code'))).toMatch(/code is wrong/);
      } else {
        await expectDisabled(page.getByRole('button', { name: 'Send code' }), step === 'sendingCode');
        if (problems.recovery) expect(await errorOf(page.getByLabel('Email'))).toBe('Invalid email address');
      }
      return;
    }
    // The profile side panel.
    await page.getByRole('heading', { name: `Hello, ${me.displayName}` }).waitFor({ timeout: 100 });
    const profile = section(world, 'Edit profile');
    await expectStatus(profile, value.profile === 'saved' ? 'Saved' : null);
    if (value.profile === 'saving') await expectDisabled(profile.getByRole('button', { name: 'Save' }), true);
    if (problems.profile) expect(await errorOf(profile.getByLabel('Username'))).toMatch(/3 to 32/);

    const password = section(world, 'Change password');
    await expectStatus(password, value.password === 'changed' ? 'Password changed' : null);
    await expectDisabled(
      password.getByRole('button', { name: 'Change password' }),
      value.password === 'changing',
    );
    if (problems.password)
      expect(await errorOf(password.getByLabel('Current password'))).toContain('not right');
    if (value.password === 'changed') {
      // Passwords leave the screen; this session goes on with a renewed token (only the others end).
      expect(await password.getByLabel('Current password').inputValue()).toBe('');
      const renewed = await storedToken(page);
      expect(renewed).not.toBe(world.data.token);
      const me = await call(world.server as unknown as TestServer, '/api/v1/user/me', {
        tenant: 'app',
        token: renewed ?? '',
      });
      expect(me.status).toBe(200);
    }

    const sessions = section(world, 'Sessions');
    await expectDisabled(
      sessions.getByRole('button', { name: 'Log out everywhere' }),
      value.sessions === 'loggingOutEverywhere',
    );
    expect(await sessions.getByRole('alert').count()).toBe(problems.sessions ? 1 : 0);
    if (problems.sessions) expect(await sessions.getByRole('alert').textContent()).toMatch(/Cannot reach/);

    const data = section(world, 'Your data');
    await expectStatus(data, value.data === 'exported' ? 'Your data has been downloaded.' : null);
    await expectDisabled(data.getByRole('button', { name: 'Download my data' }), value.data === 'exporting');
    expect(await data.getByRole('alert').count()).toBe(problems.data || problems.deletion ? 1 : 0);
    if (value.data === 'exported') expect(world.data.file).toBe(`parley-${me.username}.json`);

    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    expect(await dialog.count()).toBe(value.deletion === 'closed' ? 0 : 1);
    if (value.deletion !== 'closed') {
      await expectDisabled(
        dialog.getByRole('button', { name: 'Delete my account for good' }),
        value.deletion === 'deleting',
      );
      if (problems.deletion) expect(await dialog.getByRole('alert').textContent()).toMatch(/Cannot reach/);
    } else if (world.data.cancelled) {
      // Focus goes back to the button that opened the dialog.
      expect(
        await data
          .getByRole('button', { name: 'Delete my account' })
          .evaluate((button) => button === document.activeElement),
      ).toBe(true);
    }
  },
};
