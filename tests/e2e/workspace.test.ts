import { readFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, loginOwner } from '../server/admin/support';
import { call, signUp, type TestServer } from '../support/app';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { type RunningServer, startServer } from '../support/server';

type Account = Awaited<ReturnType<typeof signUp>>;

/** The page background at the first frame the browser draws, and any content security policy violation. */
declare global {
  interface Window {
    firstFrame?: { background: string; theme: string | undefined };
    violations: string[];
  }
}

describe('the conversation workspace in Chromium against npm start', () => {
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

  /** A new account, and a fresh browser (its own storage) logged in as it. */
  async function loggedIn(options: BrowserContextOptions = {}) {
    const account = await signUp(server as unknown as TestServer);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: `Hello, ${account.displayName}` }).waitFor();
    return { account, page };
  }
  const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
  const send = async (page: Page, text: string) => {
    await page.getByLabel('Message').fill(text);
    await page.getByLabel('Message').press('Enter');
  };
  const lastReply = (page: Page) => page.locator('.message.bot').last();
  /** A new chat with the bot, its first message sent and answered (`answer` is in the reply). */
  async function chat(page: Page, bot: string, text: string, answer: string) {
    await page.goto(`${server.url}/list`);
    await page.getByRole('link', { name: `Chat ${bot}` }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send(page, text);
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => lastReply(page).textContent()).toContain(answer);
  }
  const conversationsOf = async (account: Account) =>
    (await fetch(`${server.url}/api/v1/topic`, {
      headers: { authorization: `Bearer ${account.token}` },
    }).then((answer) => answer.json())) as { title: string }[];

  it('lists a conversation in the sidebar after its first message, and none after a click on Chat alone', async () => {
    const { account, page } = await loggedIn();
    await sidebar(page).getByText('No conversations yet.').waitFor();
    await page.getByRole('link', { name: 'Chat ELIZA' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    // The bot's empty chat: its name, description and prompts to try, and nothing stored.
    await page.getByRole('heading', { name: 'ELIZA', level: 2 }).waitFor();
    await page.getByText('Rogerian psychotherapist').waitFor();
    await page.getByRole('button', { name: 'I am unhappy at work.' }).waitFor();
    await page.getByRole('link', { name: 'New chat' }).click();
    await page.waitForURL(/\/list$/);
    await page.getByRole('link', { name: 'Chat Calculator' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    expect(await conversationsOf(account)).toEqual([]);
    await expect.poll(() => sidebar(page).getByRole('link').count()).toBe(1);

    // An example prompt is a first message: the conversation exists from then on, titled by it.
    await page.getByRole('button', { name: '(2 + 3) × 4^2 ÷ 8' }).click();
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => lastReply(page).textContent()).toContain('= 10');
    const row = sidebar(page).getByRole('link', { name: /\(2 \+ 3\) × 4\^2 ÷ 8/ });
    await row.waitFor();
    // The open conversation is the highlighted one, with its bot and last words.
    expect(await row.getAttribute('aria-current')).toBe('page');
    expect(await row.textContent()).toContain('Calculator');
    expect(await sidebar(page).getByRole('heading', { name: 'Today' }).count()).toBe(1);
    expect((await conversationsOf(account)).map((topic) => topic.title)).toEqual(['(2 + 3) × 4^2 ÷ 8']);
    // The chat's header: the bot's name and its price per reply.
    await page.getByText('Calculator · Free').waitFor();
    // A bot that does not exist: said so, with the way back to the catalogue and no Retry.
    await page.goto(`${server.url}/topics/new?bot=no-such-bot`);
    await page.getByRole('alert').getByText('This bot does not exist.').waitFor();
    await page.getByRole('alert').getByRole('link', { name: 'Choose a bot' }).click();
    await page.waitForURL(/\/list$/);
    expect((await conversationsOf(account)).length).toBe(1);
    await page.context().close();
  });

  it('finds a conversation by a word of a bot reply, one request per pause in typing, the word marked', async () => {
    const { page } = await loggedIn();
    await chat(page, 'ELIZA', 'Men are all alike.', 'In what way?');
    await chat(page, 'Calculator', '1 + 1', '2');
    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/topic' && url.searchParams.get('q'))
        searches.push(url.searchParams.get('q') ?? '');
    });
    await sidebar(page).getByLabel('Search conversations').pressSequentially('WAY', { delay: 40 });
    const result = sidebar(page).getByRole('link', { name: /Men are all alike/ });
    await result.waitFor();
    expect(await result.locator('mark').textContent()).toBe('way');
    await expect.poll(() => sidebar(page).getByRole('link').count()).toBe(2);
    expect(
      await sidebar(page)
        .getByRole('link', { name: /1 \+ 1/ })
        .count(),
    ).toBe(0);
    expect(searches).toEqual(['WAY']);
    // Emptied, the box lists every conversation again.
    await sidebar(page).getByLabel('Search conversations').fill('');
    await sidebar(page)
      .getByRole('link', { name: /1 \+ 1/ })
      .waitFor();
    await page.context().close();
  });

  it('opens the command palette and the shortcuts dialog by keyboard only; the shortcuts act, fitting 320 px', async () => {
    const { account, page } = await loggedIn({ permissions: ['clipboard-read', 'clipboard-write'] });
    // A project, listed once the page loads again (chat() opens the home screen afresh).
    const made = await call(server as unknown as TestServer, '/api/v1/project', {
      token: account.token,
      body: { name: account.encrypt('Lighthouse logs') },
    });
    expect(made.status).toBe(201);
    const prompt = await call(server as unknown as TestServer, '/api/v1/prompt', {
      token: account.token,
      body: {
        command: 'tldr',
        title: 'Summarize briefly',
        text: 'Summarize {{topic}} in three lines.',
        visibility: 'private',
      },
    });
    expect(prompt.status).toBe(201);
    await chat(page, 'ELIZA', 'Men are all alike.', 'In what way?');
    const conversation = page.url();
    const box = page.getByLabel('Message');
    const hasFocus = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
    // What a shortcut with nothing to act on says, to a screen reader.
    const said = page.locator('.app-shell > p[role="status"]');
    // Ctrl+/ from the message box: the Keyboard shortcuts dialog; Escape gives focus back to the box.
    await box.focus();
    await page.keyboard.press('Control+/');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shortcuts.getByText('Open the command palette').waitFor();
    expect(await shortcuts.locator('dd').first().textContent()).toBe('Ctrl+K');
    expect(blocking(await runAxe(page, noViolations()))).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => shortcuts.count()).toBe(0);
    expect(await hasFocus(box)).toBe(true);
    // `?` in the message box is a character; outside a field it opens the dialog.
    await page.keyboard.press('?');
    expect(await box.inputValue()).toBe('?');
    await box.fill('');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('?');
    await shortcuts.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => shortcuts.count()).toBe(0);

    // Alt+Shift+C copies the last reply (its Copy button says Copied).
    await page.keyboard.press('Alt+Shift+C');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('In what way?');
    await expect.poll(() => said.textContent()).toBe('Reply copied.');

    // Alt+Shift+M: back to the message box. Ctrl+K: the palette, focus in its combobox; nothing typed,
    // the bots and actions by group.
    await page.keyboard.press('Alt+Shift+M');
    expect(await hasFocus(box)).toBe(true);
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const combobox = palette.getByRole('combobox', { name: 'Search conversations, bots and commands' });
    await palette.getByRole('group', { name: 'Actions' }).getByRole('option', { name: 'New chat' }).waitFor();
    expect(await hasFocus(combobox)).toBe(true);
    // The active option is the box's aria-activedescendant: ↑ ↓ go round, Home and End to the ends.
    const active = () =>
      combobox.evaluate((element) => {
        const option = document.getElementById(element.getAttribute('aria-activedescendant') ?? '');
        return option?.getAttribute('aria-selected') === 'true' ? option.textContent : null;
      });
    const options = palette.getByRole('option');
    const [first, last] = [await options.first().textContent(), await options.last().textContent()];
    expect(await active()).toBe(first);
    await page.keyboard.press('End');
    expect(await active()).toBe(last);
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe(first);
    await page.keyboard.press('ArrowUp');
    expect(await active()).toBe(last);
    await page.keyboard.press('Home');
    expect(await active()).toBe(first);
    // In a chat, the saved prompts too.
    expect(await palette.getByRole('group', { name: 'Prompts' }).count()).toBe(1);
    // The palette holds the keyboard: the other shortcuts wait.
    await page.keyboard.press('Alt+Shift+N');
    expect(page.url()).toBe(conversation);
    expect(await palette.count()).toBe(1);
    // A member is offered no admin screen.
    expect(await palette.getByRole('option', { name: /^Admin: / }).count()).toBe(0);
    expect(blocking(await runAxe(page, noViolations()))).toEqual([]);
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await layoutProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    // An empty result says so; Escape closes the palette and gives focus back.
    await page.keyboard.type('xyzzy');
    await palette.getByRole('status').getByText('Nothing matches.').waitFor();
    expect(await palette.getByRole('listbox').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => palette.count()).toBe(0);
    expect(await hasFocus(box)).toBe(true);

    // Alt+Shift+N: a new chat, where there is no message box for Alt+Shift+M to go to.
    await page.keyboard.press('Alt+Shift+N');
    await page.waitForURL(/\/list$/);
    await page.keyboard.press('Alt+Shift+M');
    await expect.poll(() => said.textContent()).toBe('Open a chat to write a message.');
    // No prompt outside a chat (it goes in the message box). The conversation, found by the server by
    // a word of it, opened with Enter.
    await page.keyboard.press('Control+K');
    await page.keyboard.type('summarize');
    await palette.getByRole('status').getByText('Nothing matches.').waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('ALIKE');
    await palette
      .getByRole('group', { name: 'Conversations' })
      .getByRole('option', { name: /Men are all alike/ })
      .waitFor();
    await palette.getByRole('status').getByText('One result').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(conversation);
    await page.getByRole('heading', { name: 'Men are all alike.', level: 1 }).waitFor();
    expect(await palette.count()).toBe(0);
    await page.keyboard.press('Alt+Shift+M');
    await expect.poll(() => hasFocus(box)).toBe(true);
    // A saved prompt goes in the message box as its command, where the box's / menu takes it on; so
    // does focus, from wherever the palette was opened (here the sidebar's search, by Alt+Shift+S).
    await page.keyboard.press('Alt+Shift+S');
    await expect.poll(() => hasFocus(sidebar(page).getByLabel('Search conversations'))).toBe(true);
    await page.keyboard.press('Control+K');
    await page.keyboard.type('summarize');
    await palette
      .getByRole('group', { name: 'Prompts' })
      .getByRole('option', { name: /Summarize briefly/ })
      .waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('/tldr');
    expect(await hasFocus(box)).toBe(true);
    // …where its menu lists it, and Enter asks for its placeholder.
    await page
      .getByRole('listbox', { name: 'Prompts' })
      .getByRole('option', { name: /Summarize briefly/ })
      .waitFor();
    await page.keyboard.press('Enter');
    const fill = page.getByRole('dialog', { name: 'Fill in the prompt' });
    await fill.getByLabel('topic').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => fill.count()).toBe(0);
    await box.fill('');

    // A project: its conversations in the sidebar.
    await page.keyboard.press('Control+K');
    await page.keyboard.type('lighthouse');
    await palette
      .getByRole('group', { name: 'Projects' })
      .getByRole('option', { name: 'Lighthouse logs' })
      .waitFor();
    await page.keyboard.press('Enter');
    await sidebar(page).getByRole('region', { name: 'Lighthouse logs' }).waitFor();

    // An action: the theme, at once.
    await page.keyboard.press('Control+K');
    await page.keyboard.type('appearance dark');
    await palette.getByRole('option', { name: 'Appearance: Dark' }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.context().close();
  });

  it('at 375 × 740: one-row header, the whole composer in view and growing, the sidebar a drawer', async () => {
    const { page } = await loggedIn({ viewport: { width: 375, height: 740 } });
    await chat(page, 'ELIZA', 'Men are all alike.', 'In what way?');
    const header = await page.getByRole('banner').boundingBox();
    expect(header?.height).toBeLessThan(60);
    const box = page.getByLabel('Message');
    const before = await box.boundingBox();
    const send = await page.getByRole('button', { name: 'Send' }).boundingBox();
    for (const shape of [before, send]) {
      expect(shape?.y).toBeGreaterThan(0);
      expect((shape?.y ?? 0) + (shape?.height ?? 0)).toBeLessThanOrEqual(740);
    }
    // Grows with its text, up to a limit, and stays in view.
    await box.fill(Array.from({ length: 4 }, (_, line) => `line ${line}`).join('\n'));
    const grown = await box.boundingBox();
    expect(grown?.height).toBeGreaterThan((before?.height ?? 0) + 30);
    await box.fill(Array.from({ length: 40 }, (_, line) => `line ${line}`).join('\n'));
    const full = await box.boundingBox();
    expect(full?.height).toBeLessThanOrEqual(740 * 0.3 + 1);
    expect((full?.y ?? 0) + (full?.height ?? 0)).toBeLessThanOrEqual(740);
    await box.fill('');

    // The drawer: opened from the header, focus kept inside, Escape closes it and gives focus back.
    const nav = sidebar(page);
    expect(await nav.isVisible()).toBe(false);
    const opener = page.getByRole('button', { name: 'Conversations', exact: true });
    await opener.click();
    await nav.getByRole('link', { name: 'New chat' }).waitFor();
    expect(await opener.getAttribute('aria-expanded')).toBe('true');
    const focusInside = () => nav.evaluate((element) => element.contains(document.activeElement));
    expect(await focusInside()).toBe(true);
    for (let press = 0; press < 8; press += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInside()).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);
    // Choosing a conversation closes it too; the scrim as well.
    await opener.click();
    await nav.getByRole('link', { name: /Men are all alike/ }).click();
    await expect.poll(() => nav.isVisible()).toBe(false);
    await opener.click();
    await page.mouse.click(360, 400);
    await expect.poll(() => nav.isVisible()).toBe(false);
    // Never together with the side panel: opening one closes the other.
    await opener.click();
    await page.getByRole('button', { name: 'Profile' }).click({ force: true });
    await expect.poll(() => nav.isVisible()).toBe(false);
    await page.getByRole('complementary').waitFor();
    await opener.click();
    await expect.poll(() => page.getByRole('complementary').count()).toBe(0);
    await page.context().close();
  });

  it('is dark from the colour scheme at first paint, reloads without a white flash, and keeps a chosen scheme', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      window.violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        window.violations.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
      // The first frame the browser renders: what a user would see flash.
      requestAnimationFrame(() => {
        window.firstFrame = {
          background: getComputedStyle(document.documentElement).backgroundColor,
          theme: document.documentElement.dataset.theme,
        };
      });
    });
    const page = await context.newPage();
    const firstFrame = async () => {
      await page.waitForFunction(() => window.firstFrame !== undefined);
      return page.evaluate(() => window.firstFrame);
    };
    const dark = 'rgb(20, 20, 31)';
    const white = 'rgb(255, 255, 255)';
    await page.goto(`${server.url}/landing`);
    expect((await firstFrame())?.background).toBe(dark);
    await page.getByRole('heading', { name: 'Parley', level: 1 }).waitFor();
    await page.reload();
    expect((await firstFrame())?.background).toBe(dark);

    // The Profile view's choice: kept in local storage, applied before the first paint of the next load.
    const account = await signUp(server as unknown as TestServer);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: `Hello, ${account.displayName}` }).waitFor();
    await page.getByRole('button', { name: 'Profile' }).click();
    const appearance = page.getByRole('group', { name: 'Appearance' });
    expect(await appearance.getByLabel('System').isChecked()).toBe(true);
    await appearance.getByLabel('Light').check();
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor))
      .toBe(white);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await page.reload();
    expect(await firstFrame()).toEqual({ background: white, theme: 'light' });
    await page.getByRole('button', { name: 'Profile' }).click();
    await appearance.getByLabel('Dark').check();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    expect(await firstFrame()).toEqual({ background: dark, theme: 'dark' });
    await page.getByRole('button', { name: 'Profile' }).click();
    await appearance.getByLabel('System').check();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    await page.reload();
    expect((await firstFrame())?.background).toBe(white);
    // The pre-paint script is the app's own file: the content security policy lets nothing else run.
    expect(await page.evaluate(() => window.violations)).toEqual([]);
    await context.close();
  });

  it('keeps "(2+3)*4^2 / 3" in order in Arabic, in the message and in the sidebar', async () => {
    const { page } = await loggedIn();
    await page.goto(`${server.url}/list?language=ar`);
    await page.waitForURL(/\/list$/);
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    const formula = '(2+3)*4^2 / 3';
    await page
      .getByRole('link', { name: /Calculator/ })
      .first()
      .click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    // The message box (a combobox, of the `/` menu; its label is in Arabic).
    await page.locator('textarea').fill(formula);
    await page.locator('textarea').press('Enter');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await expect.poll(() => lastReply(page).textContent()).toContain('26.666');
    /** The characters of an element's text from left to right on screen. */
    const onScreen = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => {
          const text = element.firstChild as Text;
          const range = document.createRange();
          return [...(text.textContent ?? '')]
            .map((character, index) => {
              range.setStart(text, index);
              range.setEnd(text, index + 1);
              return { character, x: range.getBoundingClientRect().left };
            })
            .filter(({ character }) => character !== ' ')
            .sort((a, b) => a.x - b.x)
            .map(({ character }) => character)
            .join('');
        });
    const inOrder = formula.replaceAll(' ', '');
    expect(await onScreen('.message.user .user-text')).toBe(inOrder);
    expect(await onScreen('.conversation-title')).toBe(inOrder);
    expect(await onScreen('.message.bot code')).toBe(inOrder);
    await page.context().close();
  });

  it('asks for the workspace, its actors and the screen at once, not each once the one before has rendered', async () => {
    // No service worker: it would answer the chunks before the route below sees them.
    const { account, page } = await loggedIn({ serviceWorkers: 'block' });
    const eliza = (
      (await fetch(`${server.url}/api/v1/bot`, {
        headers: { authorization: `Bearer ${account.token}` },
      }).then((answer) => answer.json())) as { _id: string; name: string }[]
    ).find((bot) => bot.name === 'ELIZA')?._id;
    const screens = [
      ['/list', /\/HomeArea-/, page.getByRole('link', { name: 'Chat ELIZA' })],
      [
        `/topics/new?bot=${eliza}`,
        /\/ChatArea-/,
        page.getByRole('button', { name: 'I am unhappy at work.' }),
      ],
    ] as const;
    for (const [path, screenChunk, shown] of screens) {
      // The workspace's own chunk is held back: the others must be asked for meanwhile.
      const asked: string[] = [];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/assets\/.+\.js$/, async (route) => {
        asked.push(route.request().url());
        if (/\/Workspace-/.test(route.request().url())) await held;
        await route.continue();
      });
      await page.goto(`${server.url}${path}`, { waitUntil: 'commit' });
      // Time for the page to start and pass the login check; the held chunk keeps the screen waiting.
      await expect
        .poll(
          () =>
            [screenChunk, /\/createWorkspaceActors-/].map((chunk) => asked.some((url) => chunk.test(url))),
          { timeout: 10_000 },
        )
        .toEqual([true, true]);
      release();
      await shown.waitFor();
      await page.unrouteAll();
    }
    await page.context().close();
  });

  it('keeps conversations in a project: made with instructions and a file, chats in it, moved, shared, pinned, archived, deleted with the question', async () => {
    const api = server as unknown as TestServer;
    const { account, page } = await loggedIn();
    // A group of the organization the project is shared with, and a member of it.
    const reader = await signUp(api);
    const owner = await loginOwner(api, 'app');
    const groupName = `Readers ${reader.username}`;
    const group = (await admin(api, owner, '/group', { body: { name: owner.encrypt(groupName) } })).body._id;
    await admin(api, owner, `/group/${group}/members`, { method: 'PUT', body: { members: [reader.id] } });
    const axe = async (where: string) =>
      expect(blocking(await runAxe(page, noViolations())), `axe in ${where}`).toEqual([]);
    const nav = sidebar(page);
    const rowMenu = async (title: string, item: string) => {
      await nav.getByRole('button', { name: `Conversation actions: ${title}` }).click();
      await page.getByRole('menuitem', { name: item }).click();
    };
    const topicOf = async (id: string) =>
      (await call(api, `/api/v1/topic/${id}`, { token: account.token })).body as {
        project: string | null;
        pinned: boolean;
        archived: boolean;
      };

    // The form: a name is asked for, the instructions counted, a file uploaded, a group chosen.
    await nav.getByRole('button', { name: 'New project' }).click();
    const form = page.getByRole('dialog', { name: 'New project' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('id')))
      .toBe(await form.getByLabel('Name').getAttribute('id'));
    await form.getByRole('button', { name: 'Create project' }).click();
    await form.getByText('Enter a name.').waitFor();
    await form.getByLabel('Name').fill('Trip to Lisbon');
    await form.getByLabel('Instructions').fill('Answer in French.');
    await form.getByText('17 / 8,000').waitFor();
    await form.getByLabel('Attach files').setInputFiles({
      name: 'itinerary.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Day one: the Alfama. Day two: Belém.'),
    });
    await form.locator('.attachment-chip.ready').waitFor();
    await form.getByRole('checkbox', { name: groupName }).check();
    await axe('the project form');
    await form.getByRole('button', { name: 'Create project' }).click();
    await form.waitFor({ state: 'detached' });
    // Opened at once: its instructions and files at a glance, and New chat in it.
    const overview = nav.getByRole('region', { name: 'Trip to Lisbon' });
    await overview.getByText('Answer in French.').waitFor();
    await overview.getByText('itinerary.txt').waitFor();
    const project = (
      (await call(api, '/api/v1/project', { token: account.token })).body as { _id: string }[]
    )[0]._id;

    await overview.getByLabel('Bot').selectOption({ label: 'ELIZA' });
    await overview.getByRole('link', { name: 'New chat in project' }).click();
    await page.waitForURL(new RegExp(`/topics/new\\?bot=[^&]+&project=${project}$`));
    await send(page, 'I feel at home in Lisbon.');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    const topic = page.url().split('/').at(-1) as string;
    expect((await topicOf(topic)).project).toBe(project);
    const title = 'I feel at home in Lisbon.';
    await nav.getByRole('link', { name: new RegExp(title) }).waitFor();

    // Out of the project and in again, through the move dialog.
    await rowMenu(title, 'Move to project…');
    const move = page.getByRole('dialog', { name: 'Move to project' });
    await axe('the move dialog');
    await move.getByRole('radio', { name: 'No project' }).check();
    await move.getByRole('button', { name: 'Move' }).click();
    await nav.getByText('No conversations in this project yet.').waitFor();
    expect((await topicOf(topic)).project).toBeNull();
    await nav.getByRole('button', { name: 'All conversations' }).click();
    await rowMenu(title, 'Move to project…');
    await move.getByRole('radio', { name: 'Trip to Lisbon' }).check();
    await move.getByRole('button', { name: 'Move' }).click();
    await move.waitFor({ state: 'detached' });
    expect((await topicOf(topic)).project).toBe(project);

    // Pinned, it leads the list; archived, it leaves it for the Archived view, and comes back.
    await rowMenu(title, 'Pin');
    await nav.getByRole('heading', { name: 'Pinned' }).waitFor();
    expect((await topicOf(topic)).pinned).toBe(true);
    await rowMenu(title, 'Archive');
    await nav.getByText('No conversations yet.').waitFor();
    await nav.getByRole('button', { name: 'Archived conversations' }).click();
    await nav.getByRole('link', { name: new RegExp(title) }).waitFor();
    await rowMenu(title, 'Unarchive');
    await nav.getByText('No archived conversations.').waitFor();
    await nav.getByRole('button', { name: 'All conversations' }).click();
    await nav.getByRole('link', { name: new RegExp(title) }).waitFor();
    expect((await topicOf(topic)).archived).toBe(false);

    // A member of the group sees it, marked Shared, and reads it: nothing to change or delete.
    const readerContext = await browser.newContext({ viewport: { width: 320, height: 740 } });
    const readerPage = await readerContext.newPage();
    await readerPage.addInitScript((token) => localStorage.setItem('token', token), reader.token);
    await readerPage.goto(`${server.url}/list`);
    await readerPage.getByRole('button', { name: 'Conversations' }).click();
    await sidebar(readerPage).getByRole('button', { name: 'Trip to Lisbon Shared' }).click();
    const shared = sidebar(readerPage).getByRole('region', { name: /Trip to Lisbon/ });
    await shared.getByText('Answer in French.').waitFor();
    expect(await shared.getByRole('button', { name: /Edit project|Delete project/ }).count()).toBe(0);
    await shared.getByRole('button', { name: 'Details' }).click();
    const details = readerPage.getByRole('dialog', { name: 'Trip to Lisbon' });
    await details.getByText(account.displayName).waitFor();
    await readerPage.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    await readerContext.close();

    // Deleting asks what becomes of its conversations; Escape keeps it, focus back on Delete project.
    await nav.getByRole('button', { name: 'Trip to Lisbon' }).click();
    await overview.getByRole('button', { name: 'Delete project' }).click();
    const question = page.getByRole('alertdialog', { name: 'Delete this project?' });
    await question.getByRole('radio', { name: 'Delete its conversations too' }).waitFor();
    await axe('the delete question');
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete project');
    await overview.getByRole('button', { name: 'Delete project' }).click();
    await question.getByRole('radio', { name: 'Keep them (move out of the project)' }).check();
    await question.getByRole('button', { name: 'Delete project' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await nav.getByRole('button', { name: 'Trip to Lisbon' }).count()).toBe(0);
    expect((await topicOf(topic)).project).toBeNull();
  });

  it('exports a conversation as Markdown with both sides of it', async () => {
    const { page } = await loggedIn({ acceptDownloads: true });
    await chat(page, 'ELIZA', 'Men are all alike.', 'In what way?');
    await page.getByRole('button', { name: 'Conversation actions', exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export as Markdown' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.md$/);
    const markdown = readFileSync((await download.path()) ?? '', 'utf8');
    expect(markdown).toMatch(/^## You · .*\n\nMen are all alike\.$/m);
    expect(markdown).toMatch(/^## ELIZA · .*\n\nIn what way\?/m);
    await page.context().close();
  });
});
