import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../model/browser/models/topic';
import { call, signUp, type TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { type RunningServer, startServer } from '../support/server';

describe('shared conversations in Chromium against npm start', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_TOKEN_DELAY_MS: '5', RATE_LIMIT_OTP_PER_IP_PER_HOUR: '1000' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const logIn = async (page: Page, account: { email: string; password: string }) => {
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  };

  it('shares a conversation publicly, opens the link logged out, and continues it after logging in', async () => {
    const sharer = await signUp(server as unknown as TestServer);
    const viewer = await signUp(server as unknown as TestServer);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await logIn(page, sharer);
    await page.getByRole('heading', { name: `Hello, ${sharer.displayName}` }).waitFor();
    await page.getByRole('link', { name: 'Chat ELIZA' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await page.getByLabel('Message').fill('Men are all alike.');
    await page.getByLabel('Message').press('Enter');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.locator('.message.bot').last().textContent()).toContain('In what way?');

    // Share it with anyone: the dialog shows the link to copy.
    await page.getByRole('button', { name: 'Conversation actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share conversation' });
    await dialog.getByRole('radio', { name: /Anyone with the link/ }).check();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Link' });
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{22,}$`));
    await dialog.getByRole('button', { name: 'Update link' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await context.close();

    // A fresh browser, logged out: the snapshot, read-only and not for search engines.
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const other = await visitor.newPage();
    await other.goto(url);
    await other.getByRole('heading', { name: 'Men are all alike.', level: 1 }).waitFor();
    expect(await other.locator('.message.user').first().textContent()).toContain('Men are all alike.');
    expect(await other.locator('.message.bot').first().textContent()).toContain('In what way?');
    expect(await other.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await expect.poll(() => other.getByLabel('Message').count()).toBe(0);

    // Continue: log in first, then the copy opens as the viewer's own conversation.
    await other.getByRole('button', { name: 'Continue this conversation' }).click();
    await other.waitForURL(/\/login\?returnUrl=/);
    await logIn(other, viewer);
    await other.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => other.locator('.message.bot').last().textContent()).toContain('In what way?');
    expect(await other.locator('meta[name="robots"]').count()).toBe(0);
    await other.getByLabel('Message').fill('They are always bugging us.');
    await other.getByLabel('Message').press('Enter');
    await expect.poll(() => other.locator('.message.user').count()).toBe(2);
    await visitor.close();
  });

  it('a conversation whose first message is one long word: its shared page, the chat and its dialogs fit 1280, 375 and 320 px, the dialogs take focus and close on Escape', async () => {
    const api = server as unknown as TestServer;
    const sharer = await signUp(api);
    const word = 'w'.repeat(200);
    const bots = (await call(api, '/api/v1/bot', { token: sharer.token })).body as {
      _id: string;
      name: string;
    }[];
    const eliza = bots.find((bot) => bot.name === 'ELIZA')?._id;
    const topic = (await call(api, '/api/v1/topic', { token: sharer.token, body: { bot: eliza } })).body._id;
    await readEvents(server, sharer.token, `/api/v1/topic/${topic}/message`, { text: word }, 'done');
    const shared = await call(api, `/api/v1/topic/${topic}/share`, {
      token: sharer.token,
      body: { audience: 'public' },
    });
    const link = new URL(shared.body.url, server.url).pathname;
    /** A page at `width`, made at that size, signed in as the sharer when `signedIn`. */
    const at = async (width: number, signedIn: boolean) => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      if (signedIn)
        await context.addInitScript((token) => localStorage.setItem('token', token), sharer.token);
      return context.newPage();
    };
    for (const width of [1280, 375, 320]) {
      // The title is (the start of) the long word: it wraps, as the message does.
      const page = await at(width, false);
      await page.goto(`${server.url}${link}`);
      await page.getByRole('heading', { name: /^w{40}/, level: 1 }).waitFor();
      expect(await layoutProblems(page), `the shared page at ${width} px`).toEqual([]);
      await page.context().close();
    }
    // The chat and the dialogs that name the conversation, on the widest and the narrowest screen (at
    // 375 px the browser models walk them).
    for (const width of [1280, 320]) {
      const page = await at(width, true);
      await page.goto(`${server.url}/topics/${topic}`);
      await page.getByRole('log').getByText(word).waitFor();
      expect(await layoutProblems(page), `the conversation at ${width} px`).toEqual([]);
      const menu = page.getByRole('button', { name: 'Conversation actions', exact: true });
      for (const [item, dialog] of [
        ['Delete', page.getByRole('alertdialog', { name: 'Delete this conversation?' })],
        ['Share', page.getByRole('dialog', { name: 'Share conversation' })],
      ] as const) {
        await menu.click();
        await page.getByRole('menuitem', { name: item }).click();
        await dialog.waitFor();
        expect(await layoutProblems(page), `${item} at ${width} px`).toEqual([]);
        // Focus is in the dialog once it has loaded, Escape closes it, and focus goes back to the menu.
        await expect
          .poll(() => dialog.evaluate((box) => box.contains(document.activeElement)), {
            message: `${item}: focus inside`,
          })
          .toBe(true);
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.count()).toBe(0);
        await expect
          .poll(() => menu.evaluate((button) => button === document.activeElement), {
            message: `${item}: focus back`,
          })
          .toBe(true);
      }
      await page.context().close();
    }
  });
});
