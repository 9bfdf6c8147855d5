import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogs } from '../../server/translation/catalogs';
import { readEvents } from '../model/browser/models/topic';
import { type Actor, admin, loginOwner } from '../server/admin/support';
import { call, signUp, type TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import { chartLabelProblems, layoutProblems } from '../support/fit';
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
  let owner: Actor;
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
    // A knowledge base, so its table has a row (and the audit log an entry to show).
    await admin(api, owner, '/knowledge', {
      body: { name: owner.encrypt('Staff handbook'), description: 'What everyone asks first' },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A phone's browser, made at that size (never resized), signed in as `token` when given. */
  async function phone(token?: string, size = width): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: size, height: 740 } });
    if (token) await context.addInitScript((value) => localStorage.setItem('token', value), token);
    return context.newPage();
  }
  const fits = async (page: Page, where: string) =>
    expect(await layoutProblems(page), `${where} at ${page.viewportSize()?.width} px`).toEqual([]);

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
    // The order history dates each charge, in the display language.
    await panelButtons.getByRole('button', { name: /^Profile/ }).click();
    await page.getByRole('complementary').getByRole('button', { name: 'Order history' }).click();
    const charges = page.locator('.transactions li');
    await charges.first().waitFor();
    for (const charge of await charges.all()) {
      const date = charge.locator('time');
      expect(await date.count(), `a date in “${await charge.textContent()}”`).toBe(1);
      const stamp = new Date((await date.getAttribute('datetime')) ?? '');
      expect(await date.textContent()).toBe(
        new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(stamp),
      );
    }
    await fits(page, 'the order history');
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

  it("the sidebar's search box shows its placeholder whole, in every language, at 1280, 375 and 320 px", async () => {
    const placeholders = [
      'Search conversations',
      ...[...loadCatalogs().values()].map((catalog) => catalog['Search conversations']),
    ];
    for (const size of [1280, 375, 320]) {
      const page = await phone(member.token, size);
      // At 320 px in German, whose placeholder was cut.
      await page.goto(`${server.url}/list${size === 320 ? '?language=de' : ''}`);
      const [conversations, search] =
        size === 320
          ? ['Unterhaltungen', 'Unterhaltungen suchen']
          : ['Conversations', 'Search conversations'];
      if (size <= 768) await page.getByRole('button', { name: conversations, exact: true }).click();
      const box = page.getByRole('searchbox', { name: search });
      expect(await box.getAttribute('placeholder')).toBe(search);
      // Each language's placeholder, measured in the box's own font against the room inside it.
      const cut = await box.evaluate((input, texts) => {
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        context.font = style.font;
        const room =
          input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return texts
          .map((text) => ({ text, width: Math.ceil(context.measureText(text).width) }))
          .filter(({ width }) => width > room)
          .map(({ text, width }) => `“${text}” is ${width} px in ${Math.floor(room)} px`);
      }, placeholders);
      expect(cut, `at ${size} px`).toEqual([]);
      await page.context().close();
    }
  });

  it("a new chat's prompts", async () => {
    const page = await phone(member.token);
    await page.goto(`${server.url}/topics/new?bot=${eliza}`);
    await page.getByLabel('Message').waitFor();
    await fits(page, 'a new chat');
    await page.context().close();
  });

  it('the admin area, screen by screen: each row’s actions in view, each box beside its label', async () => {
    const page = await phone(owner.token);
    // Each screen once its rows (or its form) are shown.
    const screens: [string, string, (page: Page) => Locator][] = [
      ['/admin', 'Bots', (on) => on.getByRole('button', { name: 'Retire ELIZA' })],
      ['/admin/bots/new', 'New bot', (on) => on.getByLabel('Active')],
      ['/admin/providers', 'Providers', (on) => on.getByRole('button', { name: 'Add provider' })],
      ['/admin/categories', 'Categories', (on) => on.getByRole('button', { name: 'Rename Classics' })],
      ['/admin/knowledge', 'Knowledge', (on) => on.getByRole('button', { name: 'Delete Staff handbook' })],
      ['/admin/members', 'Members', (on) => on.getByRole('button', { name: /^Credit / }).first()],
      ['/admin/settings', 'Settings', (on) => on.getByLabel('Public sharing')],
      ['/admin/sign-in', 'Sign-in', (on) => on.getByLabel('SSO required')],
      ['/admin/audit', 'Audit log', (on) => on.getByText('knowledge.create')],
      ['/admin/usage', 'Usage', (on) => on.getByRole('img', { name: 'Spend per day' })],
    ];
    for (const [path, heading, ready] of screens) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await ready(page).waitFor();
      // Every screen is checked, whichever fails first.
      expect.soft(await layoutProblems(page), `${path} at ${width} px`).toEqual([]);
    }
    // The usage charts' labels (the last screen): legible, and apart, once drawn at their width (at
    // 1280 and 375 px the usage browser model checks them).
    await expect.poll(() => chartLabelProblems(page), { message: `the charts at ${width} px` }).toEqual([]);
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
