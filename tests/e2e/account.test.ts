import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import { readCode } from '../support/outbox';
import { type RunningServer, startServer } from '../support/server';

type Account = Awaited<ReturnType<typeof signUp>>;

describe('self-service accounts in Chromium against npm start', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_OTP_PER_IP_PER_HOUR: '1000' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A new account, made through the real signup flow (code from the outbox). */
  const newAccount = () => signUp(server as unknown as TestServer);

  /** A fresh browser (its own storage) logged in through the login screen. */
  async function loggedIn(account: { email: string; password: string; displayName: string }) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await logIn(page, account.email, account.password);
    await page.waitForURL(/\/list$/);
    await page.getByRole('heading', { name: `Hello, ${account.displayName}` }).waitFor();
    return page;
  }
  async function logIn(page: Page, email: string, password: string) {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }
  const token = (page: Page) => page.evaluate(() => localStorage.getItem('token'));
  const me = (bearer: string | null) =>
    fetch(`${server.url}/api/v1/user/me`, { headers: { authorization: `Bearer ${bearer}` } });
  async function openProfile(page: Page) {
    await page.getByRole('button', { name: 'Profile' }).click();
    const panel = page.getByRole('complementary');
    await panel.getByRole('heading', { name: 'Edit profile' }).waitFor();
    return panel;
  }

  it('forgot password: a mailed code and a new password log the user in; the new password works', async () => {
    const account = await newAccount();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot$/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('status').filter({ hasText: 'we emailed it a 6-digit code' }).waitFor();

    // A wrong code is refused and said so; the right one goes through.
    await page.getByLabel('One-time code').fill('000000');
    await page.getByLabel('New password').fill('a new and long password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    // Shown next to the code field, where the server says it belongs.
    const code = page.getByLabel('One-time code');
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await code.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toContain(
      'The code is wrong',
    );
    await page.getByLabel('One-time code').fill(await readCode(server.dataDir, account.email));
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(/\/list$/);
    await page.getByRole('heading', { name: `Hello, ${account.displayName}` }).waitFor();
    // The reset revoked the session the account had before.
    expect((await me(account.token)).status).toBe(401);

    await openProfile(page);
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.waitForURL(/\/landing$/);
    await logIn(page, account.email, account.password);
    await page.getByRole('alertdialog', { name: 'Error' }).waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    await logIn(page, account.email, 'a new and long password');
    await page.waitForURL(/\/list$/);
  });

  it('logout revokes the token on the server', async () => {
    const account = await newAccount();
    const page = await loggedIn(account);
    const before = await token(page);
    expect((await me(before)).status).toBe(200);
    await openProfile(page);
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.waitForURL(/\/landing$/);
    expect(await token(page)).toBeNull();
    expect((await me(before)).status).toBe(401);
  });

  it('changing the password keeps this session and signs out the others', async () => {
    const account = await newAccount();
    const here = await loggedIn(account);
    const elsewhere = await loggedIn(account);
    const elsewhereToken = await token(elsewhere);

    const panel = await openProfile(here);
    await panel.getByLabel('Current password').fill('not my password');
    await panel.getByLabel('New password').fill('another long password');
    await panel.getByRole('button', { name: 'Change password' }).click();
    // The server's refusal is shown next to the field it is about.
    const current = panel.getByLabel('Current password');
    await expect.poll(() => current.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await current.getAttribute('aria-describedby')) ?? '';
    expect(await here.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toContain(
      'not right',
    );

    await current.fill(account.password);
    await panel.getByRole('button', { name: 'Change password' }).click();
    await panel.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    expect(await panel.getByLabel('Current password').inputValue()).toBe('');

    const renewed = await token(here);
    expect(renewed).not.toBe(account.token);
    expect((await me(renewed)).status).toBe(200);
    expect((await me(elsewhereToken)).status).toBe(401);
    // The other browser is sent to landing on its next visit; this one stays in.
    await elsewhere.reload();
    await elsewhere.waitForURL(/\/landing\?returnUrl=/);
    await here.reload();
    await here.getByRole('heading', { name: `Hello, ${account.displayName}` }).waitFor();
  });

  it('logging out everywhere signs out this browser and the others', async () => {
    const account = await newAccount();
    const here = await loggedIn(account);
    const elsewhereToken = await token(await loggedIn(account));
    await openProfile(here);
    await here.getByRole('button', { name: 'Log out everywhere' }).click();
    await here.waitForURL(/\/landing$/);
    expect(await token(here)).toBeNull();
    expect((await me(elsewhereToken)).status).toBe(401);
  });

  it('edits the display name and username; a taken username is shown at its field', async () => {
    const other: Account = await newAccount();
    const account = await newAccount();
    const page = await loggedIn(account);
    const panel = await openProfile(page);
    // The profile form's Save (Personalization has its own).
    const save = panel.getByRole('region', { name: 'Edit profile' }).getByRole('button', { name: 'Save' });

    await panel.getByLabel('Username').fill(other.username);
    await save.click();
    const username = panel.getByLabel('Username');
    await expect.poll(() => username.getAttribute('aria-invalid')).toBe('true');
    expect(await panel.textContent()).toContain('This username is taken');

    await username.fill(`${account.username}.new`);
    await panel.getByLabel('Display name').fill('Ada Byron King');
    await save.click();
    await panel.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.getByRole('heading', { name: 'Hello, Ada Byron King' }).waitFor();
    const answer = await (await me(await token(page))).json();
    expect(answer).toMatchObject({ displayName: 'Ada Byron King', username: `${account.username}.new` });

    await page.reload();
    await page.getByRole('heading', { name: 'Hello, Ada Byron King' }).waitFor();
  });

  it('personalization, memory and an import: saved, listed, changed, forgotten, and the imported chat listed', async () => {
    const account = await newAccount();
    const page = await loggedIn(account);
    const panel = await openProfile(page);

    // Custom instructions: too long is said at the field, then saved; the switch turns memory off and on.
    const personalization = panel.getByRole('region', { name: 'Personalization' });
    const instructions = personalization.getByLabel('Custom instructions');
    await instructions.fill('x'.repeat(3001));
    await personalization.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => instructions.getAttribute('aria-invalid')).toBe('true');
    await instructions.fill('I teach chemistry; answer briefly, with units.');
    await personalization.getByRole('button', { name: 'Save', exact: true }).click();
    await personalization.getByText('Saved', { exact: true }).waitFor();
    const useMemory = personalization.getByRole('switch', { name: /Use memory/ });
    expect(await useMemory.isChecked()).toBe(true);
    await useMemory.uncheck();
    const bearer = await token(page);
    const stored = () =>
      fetch(`${server.url}/api/v1/user/me/instructions`, {
        headers: { authorization: `Bearer ${bearer}` },
      }).then((response) => response.json() as Promise<{ text: string; useMemory: boolean }>);
    await expect.poll(async () => (await stored()).useMemory).toBe(false);
    expect((await stored()).text).toBe('I teach chemistry; answer briefly, with units.');
    await useMemory.check();
    await expect.poll(async () => (await stored()).useMemory).toBe(true);

    // Memories: added, edited in a dialog (Esc closes it), deleted, and all forgotten after a question.
    const memory = panel.getByRole('region', { name: 'Memory' });
    await memory.getByText(/No memories yet/).waitFor();
    const item = (text: string) => memory.getByRole('listitem').filter({ hasText: text });
    for (const text of ['My students are 16', 'I prefer SI units']) {
      await memory.getByLabel('Add a memory').fill(text);
      await memory.getByRole('button', { name: 'Add', exact: true }).click();
      await item(text).waitFor();
      // The form empties once the memory is added.
      await expect.poll(() => memory.getByLabel('Add a memory').inputValue()).toBe('');
    }
    await item('My students are 16').getByRole('button', { name: 'Edit' }).click();
    let dialog = page.getByRole('dialog', { name: 'Edit memory' });
    await dialog.getByLabel('Memory').fill('My students are 16 or 17');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await item('My students are 16 or 17').waitFor();
    await item('I prefer SI units').getByRole('button', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit memory' });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await item('I prefer SI units').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => item('I prefer SI units').count()).toBe(0);
    const forgetAll = memory.getByRole('button', { name: 'Forget all' });
    await forgetAll.click();
    const forget = page.getByRole('alertdialog', { name: 'Forget all memories?' });
    // Cancel keeps them, and focus goes back to Forget all.
    await forget.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => forgetAll.evaluate((button) => button === document.activeElement)).toBe(true);
    await forgetAll.click();
    await forget
      .getByRole('button', { name: /Forget/ })
      .last()
      .click();
    await memory.getByText(/No memories yet/).waitFor();

    // An import: ChatGPT's export, one conversation; again, nothing twice.
    const exported = [
      {
        id: 'conv-1',
        title: 'Titration at home',
        create_time: 1_700_000_000,
        update_time: 1_700_000_100,
        current_node: 'b',
        mapping: {
          root: { id: 'root', message: null, parent: null, children: ['a'] },
          a: {
            id: 'a',
            parent: 'root',
            children: ['b'],
            message: {
              author: { role: 'user' },
              create_time: 1_700_000_000,
              content: { content_type: 'text', parts: ['How do I titrate vinegar?'] },
            },
          },
          b: {
            id: 'b',
            parent: 'a',
            children: [],
            message: {
              author: { role: 'assistant' },
              create_time: 1_700_000_050,
              content: { content_type: 'text', parts: ['With sodium hydroxide and phenolphthalein.'] },
            },
          },
        },
      },
    ];
    const file = {
      name: 'conversations.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(exported)),
    };
    const importing = panel.getByRole('region', { name: 'Import conversations' });
    await importing.getByLabel('Export file (.json or .zip)').setInputFiles(file);
    await importing.getByRole('button', { name: 'Import' }).click();
    await importing.getByText('1 conversation imported, 0 already there').waitFor();
    await importing.getByLabel('Export file (.json or .zip)').setInputFiles(file);
    await importing.getByRole('button', { name: 'Import' }).click();
    await importing.getByText('0 conversations imported, 1 already there').waitFor();
    // A file of another kind: what is wrong is said.
    await importing.getByLabel('Export file (.json or .zip)').setInputFiles({
      name: 'conversations.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"not": "an export"}'),
    });
    await importing.getByRole('button', { name: 'Import' }).click();
    await importing.getByRole('alert').waitFor();
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('link', { name: /Titration at home/ })
      .waitFor();
    await page.context().close();
  });

  it('downloads my data as a JSON file', async () => {
    const account = await newAccount();
    const page = await loggedIn(account);
    await openProfile(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`parley-${account.username}.json`);
    const data = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8'));
    expect(data.account).toMatchObject({ email: account.email, username: account.username });
    expect(data.transactions.length).toBeGreaterThan(0);
    await page.getByRole('status').filter({ hasText: 'Your data has been downloaded.' }).waitFor();
  });

  it('deletes the account after a confirmation with the password; it is gone', async () => {
    const account = await newAccount();
    const page = await loggedIn(account);
    const panel = await openProfile(page);
    const opener = panel.getByRole('button', { name: 'Delete my account' });

    // Escape closes the dialog and gives focus back to the button that opened it.
    await opener.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('type')))
      .toBe('password');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);

    // Keyboard focus stays inside the open dialog.
    await opener.click();
    for (let press = 0; press < 4; press += 1) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
    await dialog.getByText('Enter your password.').waitFor();
    await dialog.getByLabel('Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.waitForURL(/\/landing$/);
    expect(await token(page)).toBeNull();

    await logIn(page, account.email, account.password);
    const alert = page.getByRole('alertdialog', { name: 'Error' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid email or password');
  });

  it('a wrong password on delete ends the session and lands on welcome; the account stays', async () => {
    const account = await newAccount();
    const page = await loggedIn(account);
    await openProfile(page);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill('not my password');
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.waitForURL(/\/welcome$/);
    expect(await token(page)).toBeNull();
    await logIn(page, account.email, account.password);
    await page.waitForURL(/\/list$/);
  });
});
