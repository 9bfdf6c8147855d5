import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, loginOwner } from '../server/admin/support';
import type { TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../support/openai-double';
import { readCode } from '../support/outbox';
import { type RunningServer, startServer } from '../support/server';

describe('home and chat in Chromium against npm start', () => {
  let server: RunningServer;
  let model: OpenAiDouble;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startServer({ OPENAI_BASE_URL: model.url, BUILTIN_TOKEN_DELAY_MS: '5' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const email = `chat.${Date.now()}@example.org`;
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username').fill(`chat${Date.now()}`);
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('One-time code').fill(await readCode(server.dataDir, email));
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: /Grace Hopper/ }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  // As a person would: once the previous reply has ended (Stop became Send again), Enter sends.
  const send = async (text: string) => {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send', exact: true }).and(page.locator(':enabled')).waitFor();
    await page.getByLabel('Message').press('Enter');
  };
  const lastReply = () => page.locator('.message.bot').last();

  it('filters the catalogue by category and opens a bot from the side panel', async () => {
    await page.getByRole('heading', { name: 'Built-in' }).waitFor();
    await expect.poll(() => page.locator('.bot-card').count()).toBeGreaterThanOrEqual(5);
    await page.getByRole('button', { name: 'Tools' }).click();
    await expect
      .poll(() => page.locator('.bot-card h4').allTextContents())
      .toEqual(['Calculator', 'Translator']);
    await page.getByRole('button', { name: 'All categories' }).click();
    await expect.poll(() => page.locator('.bot-card').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('.bot-card h4').allTextContents()).not.toContain('Oracle');

    await page.getByRole('button', { name: 'Bot list' }).click();
    await page.getByRole('complementary').getByRole('button', { name: 'ELIZA' }).click();
    await page.getByRole('heading', { name: 'Bot details' }).waitFor();
    await page.getByRole('complementary').getByRole('link', { name: 'Chat ELIZA' }).click();
    // The bot's empty chat: nothing is created until the first message.
    await page.waitForURL(/\/topics\/new\?bot=/);
  });

  it('streams ELIZA and the calculator, and keeps the balance current', async () => {
    await send('Men are all alike.');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => lastReply().textContent()).toContain('In what way?');
    await send('My mother takes care of me.');
    // ELIZA's first remark about family, as in her script's order.
    await expect.poll(() => lastReply().textContent()).toContain('Tell me more about your family.');

    await page.goto(`${server.url}/list`);
    await page.getByRole('link', { name: 'Chat Calculator' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send('(1.5 + 2) × 4');
    await expect.poll(() => lastReply().textContent()).toContain('= 14');
    expect(await lastReply().locator('strong').textContent()).toBe('14');
  });

  it('stops a streamed reply and keeps what arrived, marked stopped', async () => {
    await page.goto(`${server.url}/list`);
    model.script(() => ({ chunks: Array.from({ length: 300 }, (_, index) => `word${index} `), delayMs: 20 }));
    // Model bots are active because OPENAI_BASE_URL points at the double.
    await page.getByRole('link', { name: 'Chat Assistant' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send('Tell me a long story');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => lastReply().textContent()).toContain('word3');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped').waitFor();
    const kept = await lastReply().textContent();
    expect(kept).not.toContain('word299');
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));

    // Resumed after a reload: the same conversation, the partial reply kept.
    await page.reload();
    await page.getByRole('log').getByText('Tell me a long story').waitFor();
    await expect.poll(() => page.getByText('Stopped').count()).toBe(1);
  });

  it('renames and deletes a conversation from the sidebar', async () => {
    await page.goto(`${server.url}/list`);
    const sidebar = page.getByRole('navigation', { name: 'Conversations' });
    await sidebar.getByRole('link', { name: /Men are all alike/ }).waitFor();
    await sidebar.getByRole('button', { name: /Conversation actions: Men are all alike/ }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename conversation' });
    await rename.getByLabel('New title').fill('Therapy session');
    await rename.getByRole('button', { name: 'Save' }).click();
    await sidebar.getByRole('link', { name: /Therapy session/ }).waitFor();
    // Focus is back on the menu button the dialog came from.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(
      /^Conversation actions: /,
    );
    await sidebar.getByRole('button', { name: /Conversation actions: Therapy session/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete this conversation?' })
      .getByRole('button', { name: 'Yes, delete' })
      .click();
    await expect.poll(() => sidebar.getByRole('link', { name: /Therapy session/ }).count()).toBe(0);
  });

  it('shows the five side panel views and reopens the last one', async () => {
    await page.goto(`${server.url}/list`);
    const panel = page.getByRole('complementary');
    for (const [button, title] of [
      ['Profile', 'Profile'],
      ['Notifications', 'Notifications'],
      ['Bot list', 'Bot list'],
      ['Filter bots', 'Filter bots'],
    ]) {
      await page.getByRole('button', { name: new RegExp(`^${button}`) }).click();
      // The view's title is the panel's heading (level 2); a view's own sections are level 3.
      await panel.getByRole('heading', { name: title, level: 2 }).waitFor();
    }
    await page.getByRole('button', { name: 'Bot list' }).click();
    await panel.getByRole('button', { name: 'Calculator' }).click();
    await panel.getByRole('heading', { name: 'Bot details' }).waitFor();

    await page.getByRole('button', { name: 'Profile' }).click();
    await panel.getByRole('button', { name: 'Show balance' }).click();
    await expect.poll(() => panel.textContent()).toMatch(/Balance: €9\.98|Balance: 9\.98/);
    await panel.getByRole('button', { name: 'Close side panel' }).click();
    await expect.poll(() => panel.count()).toBe(0);
    // Reopened: the last view, with its flags reset by the close.
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await panel.getByRole('heading', { name: /Welcome to Parley/ }).waitFor();
    await panel.getByRole('button', { name: /Mark as read/ }).click();
    // Named by its text, the unread count gone with the badge.
    await expect.poll(() => page.getByRole('button', { name: 'Notifications', exact: true }).count()).toBe(1);
  });

  it('forces the panel closed on a phone-sized resize', async () => {
    await page.goto(`${server.url}/list`);
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('complementary').waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.getByRole('complementary').count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('renders bot output as sanitized markdown: an XSS corpus executes nothing', async () => {
    const payloads = [
      '<script>window.__pwned = 1</script>',
      '<img src=x onerror="window.__pwned = 2">',
      '[click](javascript:window.__pwned=3)',
      '<a href="javascript:window.__pwned=4">link</a>',
      '<svg onload="window.__pwned=5"></svg>',
      '<iframe src="javascript:window.__pwned=6"></iframe>',
      '<details open ontoggle="window.__pwned=7">',
      '![x](javascript:window.__pwned=8)',
      '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=9">',
      '**bold** and [a safe link](https://example.org)',
    ];
    model.script(() => ({ chunks: payloads.map((payload) => `${payload}\n\n`) }));
    await page.goto(`${server.url}/list`);
    await page.getByRole('link', { name: 'Chat Assistant' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send('show me html');
    await expect.poll(() => lastReply().textContent()).toContain('a safe link');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // The reply's text as rendered (its action buttons' icons are ours).
    const reply = lastReply().locator('.markdown');
    expect(await reply.locator('script, iframe, svg, math, img, style').count()).toBe(0);
    expect(await reply.locator('[onerror], [onload], [ontoggle]').count()).toBe(0);
    expect(await reply.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await reply.getByRole('link', { name: 'a safe link' }).getAttribute('rel')).toContain('noopener');
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });
  it('shows the bot typing, offers Jump to latest when scrolled up, and keeps a failed reply with Retry', async () => {
    await page.setViewportSize({ width: 700, height: 520 });
    await page.goto(`${server.url}/list`);
    // A pause before the first words, then a reply taller than the conversation's pane.
    model.script(() => ({
      chunks: ['', ...Array.from({ length: 50 }, (_, index) => `Paragraph ${index}.\n\n`)],
      delayMs: 120,
    }));
    await page.getByRole('link', { name: 'Chat Assistant' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send('Tell me everything');
    await page.locator('.typing').getByText('Typing…').waitFor();
    await lastReply().getByText('Paragraph 8.').waitFor();
    // The sidebar (a closed drawer at this width) marks the conversation whose reply is being written.
    const writing = page
      .locator('#conversation-sidebar')
      .getByRole('img', { name: 'Replying…', includeHidden: true });
    await expect.poll(() => writing.count(), { timeout: 5000 }).toBe(1);
    expect(await page.locator('.typing').count()).toBe(0);
    const log = page.getByRole('log');
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    expect(await jump.count()).toBe(0);
    await log.evaluate((element) => {
      element.scrollTop = 0;
    });
    await jump.waitFor();
    await jump.click();
    await expect
      .poll(() => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight))
      .toBeLessThan(48);
    await expect.poll(() => jump.count()).toBe(0);
    // Alt+Shift+X stops it, as the Stop button does.
    await page.keyboard.press('Alt+Shift+X');
    await expect.poll(() => writing.count(), { timeout: 5000 }).toBe(0);
    await lastReply().getByText('Stopped').waitFor();
    // Each message says when, the exact time in its tooltip.
    const time = page.locator('.message.user time').last();
    expect(await time.textContent()).toBe('now');
    expect(await time.getAttribute('title')).toMatch(/\d{4}/);

    // Cut off by the model server: what arrived stays, marked failed, with the error and Retry.
    model.script(() => ({ chunks: ['A partial ', 'answer'], end: 'drop' }));
    await send('And then?');
    const problem = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) });
    await problem.waitFor();
    await lastReply().getByText('Failed').waitFor();
    expect(await lastReply().textContent()).toContain('A partial answer');
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
    await problem.getByRole('button', { name: 'Retry' }).click();
    await lastReply().getByText('You said: And then?').waitFor();
    expect(await problem.count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('follows a reply to its end when Stop is lost on the network', async () => {
    await page.goto(`${server.url}/list`);
    model.script(() => ({ chunks: Array.from({ length: 80 }, (_, index) => `word${index} `), delayMs: 20 }));
    await page.getByRole('link', { name: 'Chat Assistant' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send('Tell me a story that goes on');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => lastReply().textContent()).toContain('word3');
    await page.route('**/api/v1/topic/*/stop', (route) => route.abort('internetdisconnected'), { times: 1 });
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    // The server never heard of the stop: the reply goes on, on screen too, to its end.
    await expect.poll(() => lastReply().textContent(), { timeout: 15_000 }).toContain('word79');
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    expect(await lastReply().getByText('Stopped').count()).toBe(0);
    expect(await lastReply().getByText('Still being written…').count()).toBe(0);
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });

  it("titles a model bot's conversation with what its model writes, in the chat's bar and the sidebar", async () => {
    await page.goto(`${server.url}/list`);
    model.script(() => ({ chunks: ['Gladly: the Jardin des Plantes, then the Seine by boat.'] }));
    model.scriptTitles(() => ({ chunks: ['Paris weekend with children'] }));
    await page.getByRole('link', { name: 'Chat Assistant' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send('Can you help me plan a long weekend in Paris with two children who love animals and boats?');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Paris weekend with children' }).waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Conversations' });
    await sidebar.getByRole('link', { name: /Paris weekend with children/ }).waitFor();
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
    model.scriptTitles((request) => ({
      chunks: [textOf(request.messages.find((message) => message.role === 'user')?.content).split('\n')[0]],
    }));
  });

  it('makes a bot of its own, finds it under Mine, and chats with it from one of its starters', async () => {
    // The admins let members make bots, on a model open to them.
    const api = server as unknown as TestServer;
    const owner = await loginOwner(api, 'app');
    await admin(api, owner, '/settings', { method: 'PATCH', body: { memberBots: true } });
    await admin(api, owner, '/model', {
      body: {
        name: owner.encrypt('Members model'),
        provider: null,
        model: 'double-members',
        price: 0,
        memberBots: true,
      },
    });
    await page.goto(`${server.url}/list`);
    await page.getByRole('region', { name: 'Your bots' }).getByRole('button', { name: 'Make a bot' }).click();
    const form = page.getByRole('dialog', { name: 'Make a bot' });
    await form.getByLabel('Name').fill('Parrot expert');
    await form.getByLabel('Instructions').fill('Always answer like a pirate.');
    await form.getByLabel('Starter prompts').fill('Who is the parrot?');
    await expect.poll(() => form.getByLabel('Model').inputValue()).not.toBe('');
    await form.getByRole('button', { name: 'Make a bot' }).click();
    await form.waitFor({ state: 'detached' });
    const mine = page.getByRole('region', { name: 'Mine' });
    await mine.getByRole('heading', { name: 'Parrot expert' }).waitFor();
    await mine.getByRole('link', { name: 'Chat Parrot expert' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    model.requests.length = 0;
    await page.getByRole('button', { name: 'Who is the parrot?' }).click();
    await lastReply().getByText('You said: Who is the parrot?').waitFor();
    const request = model.requests.at(-1);
    expect(request?.model).toBe('double-members');
    expect(textOf(request?.messages[0].content)).toContain('Always answer like a pirate.');
  });
});
