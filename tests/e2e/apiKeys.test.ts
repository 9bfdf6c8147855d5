import OpenAI from 'openai';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { readCode } from '../support/outbox';
import { type RunningServer, startServer } from '../support/server';

// Issue 22: a member makes a personal API key in the Profile panel, copies it, uses it with the official
// `openai` client, revokes it; an admin turns API access off and every key stops working.
describe('personal API keys in Chromium, used by the official openai client', () => {
  let server: RunningServer;
  let browser: Browser;
  let member: Page;
  let admin: Page;
  let token: string;
  const stamp = Date.now().toString(36);
  const ada = { displayName: 'Ada Lovelace', username: `ada${stamp}`, email: `ada.${stamp}@example.org` };
  const axeTotals = noViolations();
  const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;

  const newPage = async (width = 1280, height = 900) => {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    return context.newPage();
  };
  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
  /** The status and OpenAI error code the client threw. */
  const failure = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof OpenAI.APIError) return { status: error.status, code: error.code };
      throw error;
    }
    throw new Error('the call did not fail');
  };
  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
  /** axe finds nothing serious, and nothing lies outside the window or makes the page scroll sideways. */
  const expectAccessible = async (page: Page, where: string) => {
    expect(blocking(await runAxe(page, axeTotals)), `axe: ${where}`).toEqual([]);
    expect(await layoutProblems(page), `layout: ${where}`).toEqual([]);
  };
  /** The Profile panel's API keys section, the panel opened from its button. */
  const keysSection = async (page: Page) => {
    const button = page
      .getByRole('navigation', { name: 'Side panel' })
      .getByRole('button', { name: /^Profile/ });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    const section = page.getByRole('complementary').getByRole('region', { name: 'API keys' });
    await section.waitFor();
    return section;
  };
  const closePanel = (page: Page) =>
    page
      .getByRole('navigation', { name: 'Side panel' })
      .getByRole('button', { name: /^Profile/ })
      .click();
  /** Makes a key in the form; answers its dialog and the key it shows. */
  const createKey = async (page: Page, section: Locator, name: string, expires = '') => {
    await section.getByLabel('Name', { exact: true }).fill(name);
    await section.getByLabel('Expires on (optional)').fill(expires);
    await section.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Your new API key' });
    const field = dialog.getByRole('textbox', { name: 'API key' });
    await field.waitFor();
    return { dialog, key: await field.inputValue() };
  };

  beforeAll(async () => {
    server = await startServer({ BUILTIN_TOKEN_DELAY_MS: '0' });
    browser = await launchBrowser();
    [member, admin] = await Promise.all([newPage(), newPage()]);
    await member.goto(`${server.url}/register`);
    await member.getByLabel('Username').fill(ada.username);
    await member.getByLabel('Display name').fill(ada.displayName);
    await member.getByLabel('Email').fill(ada.email);
    await member.getByLabel('Password').fill('a long enough password');
    await member.getByRole('button', { name: 'Send code' }).click();
    await member.getByLabel('One-time code').fill(await readCode(server.dataDir, ada.email));
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.getByRole('heading', { name: `Hello, ${ada.displayName}` }).waitFor();
    token = (await member.evaluate(() => localStorage.getItem('token'))) as string;
    await admin.goto(`${server.url}/login`);
    await admin.getByLabel('Email').fill('admin@parley.test');
    await admin.getByLabel('Password', { exact: true }).fill('parley-admin-1');
    await admin.getByRole('button', { name: 'Log in' }).click();
    await admin.waitForURL(/\/list$/);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  let key = '';

  it('a member creates a key in the Profile panel, copies it, and the openai client lists the bots', async () => {
    const section = await keysSection(member);
    await section.getByText('No API keys yet.').waitFor();
    await expectAccessible(member, 'API keys, none');

    // A key needs a name: said at the field, nothing sent.
    const create = section.getByRole('button', { name: 'Create key' });
    await create.click();
    const name = section.getByLabel('Name', { exact: true });
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await section.getByText('Enter a name for the key.').count()).toBe(1);
    await expectAccessible(member, 'API keys, no name');

    const made = await createKey(member, section, 'My editor', nextYear);
    key = made.key;
    expect(key).toMatch(/^pk-parley-[\w-]{43}$/);
    expect(await made.dialog.textContent()).toContain('you will not see it again');
    await expectAccessible(member, 'new key dialog');
    await made.dialog.getByRole('button', { name: /^Copy/ }).click();
    await expect.poll(() => member.evaluate(() => navigator.clipboard.readText())).toBe(key);
    // Escape closes it, focus back on Create key; the key is never shown again.
    await member.keyboard.press('Escape');
    await expect.poll(() => made.dialog.count()).toBe(0);
    await expect.poll(() => focused(create)).toBe(true);
    expect(await section.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('');
    const item = section.getByRole('listitem').filter({ hasText: 'My editor' });
    expect(await item.textContent()).toContain(`…${key.slice(-4)}`);
    expect(await member.content()).not.toContain(key);
    await expectAccessible(member, 'API keys, one');

    // The key works with the official client: its models are the bots the member sees.
    const bots = (await (
      await fetch(`${server.url}/api/v1/bot`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { _id: string; name: string }[];
    const models = await client(key).models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids).toContain(bots.find((bot) => bot.name === 'ELIZA')?._id);
    expect(ids.every((id) => bots.some((bot) => bot._id === id))).toBe(true);
    const answer = await client(key).chat.completions.create({
      model: bots.find((bot) => bot.name === 'ELIZA')?._id as string,
      messages: [{ role: 'user', content: 'I am sad.' }],
    });
    expect(answer.choices[0].message.content).toMatch(/\w/);

    // Opened again, the panel says when the key was last used.
    await closePanel(member);
    const again = await keysSection(member);
    await expect
      .poll(() => again.getByRole('listitem').filter({ hasText: 'My editor' }).textContent())
      .toMatch(/Last used(?!Never)/);
  });

  it('fits and passes axe at 375 and 320 px: the list, the new key and the Revoke confirmation', async () => {
    for (const width of [375, 320]) {
      const page = await newPage(width, 740);
      await page.addInitScript((value) => localStorage.setItem('token', value), token);
      await page.goto(`${server.url}/list`);
      const section = await keysSection(page);
      await section.getByRole('listitem').first().waitFor();
      await expectAccessible(page, `API keys at ${width} px`);
      const made = await createKey(page, section, `Phone ${width}`);
      await expectAccessible(page, `new key at ${width} px`);
      await made.dialog.getByRole('button', { name: 'Done' }).click();
      const revoke = section.getByRole('button', { name: `Revoke Phone ${width}` });
      await revoke.click();
      const confirm = page.getByRole('alertdialog', { name: 'Revoke API key' });
      await confirm.waitFor();
      await expectAccessible(page, `Revoke at ${width} px`);
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
      await expect.poll(() => revoke.count()).toBe(0);
      await page.context().close();
    }
  });

  it('revoked in the panel (Escape first keeps it), the key gets 401 from the client', async () => {
    const section = await keysSection(member);
    const revoke = section.getByRole('button', { name: 'Revoke My editor' });
    await revoke.click();
    const dialog = member.getByRole('alertdialog', { name: 'Revoke API key' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('My editor');
    await expectAccessible(member, 'Revoke API key');
    await member.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focused(revoke)).toBe(true);
    expect((await client(key).models.list()).object).toBe('list');

    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await section.getByText('No API keys yet.').waitFor();
    // The row is gone: focus lands on the section's heading.
    await expect.poll(() => focused(section.getByRole('heading', { name: 'API keys' }))).toBe(true);
    expect(await failure(client(key).models.list())).toEqual({ status: 401, code: 'invalid_api_key' });
  });

  it('an admin turns API access off: the key stops working and the panel says so', async () => {
    const section = await keysSection(member);
    const made = await createKey(member, section, 'Script');
    await made.dialog.getByRole('button', { name: 'Done' }).click();
    expect((await client(made.key).models.list()).object).toBe('list');

    await admin.goto(`${server.url}/admin`);
    await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
    await admin.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const access = admin.getByRole('switch', { name: 'API access' });
    expect(await access.isChecked()).toBe(true);
    await access.uncheck();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('status').getByText('Saved').waitFor();
    await expectAccessible(admin, 'Settings, API access off');

    expect(await failure(client(made.key).models.list())).toEqual({
      status: 403,
      code: 'api_access_disabled',
    });
    await closePanel(member);
    const off = await keysSection(member);
    await off.getByText('API access is turned off for this organization.', { exact: false }).waitFor();
    expect(await off.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await expectAccessible(member, 'API keys, turned off');

    // On again, the same key works at once.
    await access.check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await client(made.key).models.list()).object).toBe('list');
  });
});
