import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../model/browser/models/topic';
import { loginOwner } from '../server/admin/support';
import { call, signUp, type TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { type RunningServer, startServer } from '../support/server';

/** What people paste: a word longer than any screen, a long address, a wide code block and table. */
const longMessage = [
  'x'.repeat(300),
  `https://example.org/${'a-rather-long-path/'.repeat(12)}?q=${'y'.repeat(60)}`,
  `\`\`\`\n${'const answer = 42; '.repeat(30)}\n\`\`\``,
  `| ${Array.from({ length: 12 }, (_, index) => `column ${index}`).join(' | ')} |`,
  `|${' --- |'.repeat(12)}`,
  `| ${Array.from({ length: 12 }, (_, index) => `value ${index}`).join(' | ')} |`,
].join('\n\n');

// At 375 px every state of every machine is checked by the browser models (tests/model/browser): here
// the narrowest phone, with what people paste.
const width = 320;

describe(`every screen fits a ${width} px phone`, () => {
  let server: RunningServer;
  let browser: Browser;
  let member: { token: string };
  let owner: { token: string };
  let topicId: string;
  let eliza: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ BUILTIN_TOKEN_DELAY_MS: '0', RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000' }),
      launchBrowser(),
    ]);
    const api = server as unknown as TestServer;
    member = await signUp(api);
    owner = await loginOwner(api, 'app');
    const bots = (await call(api, '/api/v1/bot', { token: member.token })).body as {
      _id: string;
      name: string;
    }[];
    eliza = bots.find((bot) => bot.name === 'ELIZA')?._id as string;
    topicId = (await call(api, '/api/v1/topic', { token: member.token, body: { bot: eliza } })).body._id;
    await readEvents(server, member.token, `/api/v1/topic/${topicId}/message`, { text: longMessage }, 'done');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A phone's browser, made at that size (never resized), signed in as `token` when given. */
  async function phone(token?: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 740 } });
    if (token) await context.addInitScript((value) => localStorage.setItem('token', value), token);
    return context.newPage();
  }
  const fits = async (page: Page, where: string) =>
    expect(await layoutProblems(page), `${where} at ${width} px`).toEqual([]);

  it('signing up, logging in and resetting a password', async () => {
    const page = await phone();
    for (const [path, heading] of [
      ['/login', 'Log in'],
      ['/register', 'Create your account'],
      ['/forgot', 'Reset your password'],
    ]) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await fits(page, path);
    }
    await page.context().close();
  });

  it('the bots, and each view of the side panel over them', async () => {
    const page = await phone(member.token);
    await page.goto(`${server.url}/list`);
    await page.getByRole('button', { name: 'Details ELIZA' }).waitFor();
    await fits(page, 'the bot list');
    const panelButtons = page.getByRole('navigation', { name: 'Side panel' });
    for (const view of ['Filter bots', 'Bot list', 'Notifications', 'Profile']) {
      await panelButtons.getByRole('button', { name: new RegExp(`^${view}`) }).click();
      await page.getByRole('complementary').waitFor();
      await fits(page, `the side panel's ${view}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('complementary').count()).toBe(0);
    }
    await page.context().close();
  });

  it('a conversation with a long word, a long address, wide code and a wide table: Send stays in reach', async () => {
    const page = await phone(member.token);
    await page.goto(`${server.url}/topics/${topicId}`);
    await page
      .getByRole('log')
      .getByText(/^x{300}/)
      .waitFor();
    await fits(page, 'the conversation');
    const send = page.getByRole('button', { name: 'Send' });
    await page.getByLabel('Message').fill('And on a phone?');
    expect(await send.isVisible()).toBe(true);
    await send.click();
    await page.getByRole('log').getByText('And on a phone?').waitFor();
    await page.getByRole('button', { name: 'Conversations', exact: true }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    await fits(page, 'the conversation drawer');
    await page.context().close();
  });

  it("a new chat's prompts", async () => {
    const page = await phone(member.token);
    await page.goto(`${server.url}/topics/new?bot=${eliza}`);
    await page.getByLabel('Message').waitFor();
    await fits(page, 'a new chat');
    await page.context().close();
  });

  it('the admin area, screen by screen', async () => {
    const page = await phone(owner.token);
    for (const [path, heading] of [
      ['/admin', 'Bots'],
      ['/admin/providers', 'Providers'],
      ['/admin/categories', 'Categories'],
      ['/admin/members', 'Members'],
      ['/admin/settings', 'Settings'],
      ['/admin/usage', 'Usage'],
      ['/admin/audit', 'Audit log'],
    ]) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await fits(page, path);
    }
    await page.context().close();
  });

  it("the header's menu holds the language picker: opened and closed by keyboard, focus back on its button", async () => {
    const page = await phone(member.token);
    await page.goto(`${server.url}/list`);
    const menu = page.getByRole('button', { name: 'Menu' });
    const language = page.getByLabel('Language');
    expect(await language.isVisible()).toBe(false);
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => language.evaluate((element) => element === document.activeElement)).toBe(true);
    await fits(page, 'the open menu');
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await language.isVisible()).toBe(false);
    expect(await menu.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.context().close();
  });
});
