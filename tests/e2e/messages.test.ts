import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, loginOwner } from '../server/admin/support';
import { png } from '../server/files/support';
import { call, type TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import {
  type ChatRequest,
  type OpenAiDouble,
  type Script,
  startOpenAiDouble,
  textOf,
} from '../support/openai-double';
import { readCode } from '../support/outbox';
import { type RunningServer, startServer } from '../support/server';
import { readEvents } from '../support/sse';

const echo = (request: ChatRequest): Script => ({
  chunks: ['You said: ', textOf(request.messages.at(-1)?.content)],
});
/** A reply long enough to leave in the middle of: 150 numbered words, 15 ms apart. */
const longReply: Script = { chunks: Array.from({ length: 150 }, (_, index) => `w${index} `), delayMs: 15 };
const wholeLongReply = longReply.chunks.join('').trim();
const isTranslation = (request: ChatRequest) =>
  request.messages[0]?.role === 'system' && textOf(request.messages[0].content).startsWith('Translate');

describe('messages people can work with, in Chromium against npm start', () => {
  let server: RunningServer;
  let model: OpenAiDouble;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startServer({ OPENAI_BASE_URL: model.url, BUILTIN_TOKEN_DELAY_MS: '5' });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    const email = `messages.${Date.now()}@example.org`;
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username').fill(`msg${Date.now()}`);
    await page.getByLabel('Display name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('One-time code').fill(await readCode(server.dataDir, email));
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: /Ada Lovelace/ }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  const log = () => page.getByRole('log');
  const userMessages = () => log().locator('.message.user');
  const botMessages = () => log().locator('.message.bot');
  const send = async (text: string) => {
    await page.getByLabel('Message').fill(text);
    await page.getByLabel('Message').press('Enter');
  };
  /** A new chat with the model bot (answered by the double). */
  const newChat = async (first: string, script: (request: ChatRequest) => Script = echo) => {
    model.script(script);
    await page.goto(`${server.url}/list`);
    await page.getByRole('link', { name: 'Chat Assistant' }).click();
    await page.waitForURL(/\/topics\/new\?bot=/);
    await send(first);
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
  };
  const lastReplyText = async () => (await botMessages().last().locator('.markdown').textContent())?.trim();
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  it('edits a message into a new branch, and ‹ › moves between the branches, kept after a reload', async () => {
    await newChat('First question');
    await botMessages().last().getByText('You said: First question').waitFor();

    await userMessages().last().getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByLabel('Edit message');
    expect(await editor.inputValue()).toBe('First question');
    // Cancel (Esc) restores the message and focus returns to its Edit button.
    await editor.press('Escape');
    await expect.poll(() => page.getByLabel('Edit message').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');

    await userMessages().last().getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit message').fill('Second question');
    await page.getByRole('button', { name: 'Save and send' }).click();
    await botMessages().last().getByText('You said: Second question').waitFor();
    // The old branch is kept: the edited message says it is version 2 of 2.
    const versions = userMessages().last().locator('.sibling-switcher');
    await expect.poll(() => versions.textContent()).toContain('2 / 2');
    expect(await log().textContent()).not.toContain('First question');

    await versions.getByRole('button', { name: 'Previous version' }).click();
    await userMessages().last().getByText('First question').waitFor();
    expect(await botMessages().last().textContent()).toContain('You said: First question');
    expect(await log().textContent()).not.toContain('Second question');
    // The branch on screen is the topic's head: a reload shows the same one.
    await page.reload();
    await userMessages().last().getByText('First question').waitFor();
    await userMessages().last().getByRole('button', { name: 'Next version' }).click();
    await botMessages().last().getByText('You said: Second question').waitFor();
  });

  it('regenerates a reply as a new version, and copies a message with a check mark', async () => {
    await newChat('Tell me a joke');
    await botMessages().last().getByText('You said: Tell me a joke').waitFor();
    model.script(() => ({ chunks: ['Another ', '**answer**'] }));
    await botMessages().last().getByRole('button', { name: 'Regenerate' }).click();
    await botMessages().last().getByText('answer').waitFor();
    const versions = botMessages().last().locator('.sibling-switcher');
    await expect.poll(() => versions.textContent()).toContain('2 / 2');
    // Charged like any reply: the model was asked twice, with the same question.
    const asked = model.requests.filter((request) => request.messages.at(-1)?.content === 'Tell me a joke');
    expect(asked).toHaveLength(2);

    // Copy gives the markdown source, and says so.
    const copy = botMessages()
      .last()
      .getByRole('button', { name: /^(Copy|Copied)/ });
    await copy.click();
    await copy.getByText('Copied').waitFor();
    expect(await copy.textContent()).toContain('✓');
    expect(await clipboard()).toBe('Another **answer**');

    await versions.getByRole('button', { name: 'Previous version' }).click();
    await botMessages().last().getByText('You said: Tell me a joke').waitFor();

    // A thumb belongs to its version: given, then shown as given after the other version and back.
    const good = () => botMessages().last().getByRole('button', { name: 'Good', exact: true });
    await versions.getByRole('button', { name: 'Next version' }).click();
    await botMessages().last().getByText('answer').waitFor();
    await good().click();
    await page.getByRole('dialog', { name: 'What was good about this reply?' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Good');
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await botMessages().last().getByText('You said: Tell me a joke').waitFor();
    expect(await good().getAttribute('aria-pressed')).toBe('false');
    await versions.getByRole('button', { name: 'Next version' }).click();
    await botMessages().last().getByText('answer').waitFor();
    expect(await good().getAttribute('aria-pressed')).toBe('true');
    // Back on the first version, as the next test finds the conversation.
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await botMessages().last().getByText('You said: Tell me a joke').waitFor();
  });

  it('reattaches after a reload mid-reply and shows the whole reply', async () => {
    await newChat('Count slowly', () => longReply);
    await botMessages().last().getByText('w5', { exact: false }).waitFor();
    await page.reload();
    // The reply went on while the page was away; the reloaded chat follows it to its end.
    await expect.poll(lastReplyText, { timeout: 15_000 }).toBe(wholeLongReply);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await log().getByText('Stopped').count()).toBe(0);
  });

  it('keeps a reply going while the user looks at another conversation, and shows it complete on return', async () => {
    await newChat('Count again', () => longReply);
    await botMessages().last().getByText('w5', { exact: false }).waitFor();
    const address = page.url();
    const sidebar = page.getByRole('navigation', { name: 'Conversations' });
    await sidebar.getByRole('link', { name: /Tell me a joke/ }).click();
    await page.waitForURL((url) => url.href !== address);
    await botMessages().last().getByText('You said: Tell me a joke').waitFor();
    // Its activity mark leads back to it.
    await sidebar.getByRole('link', { name: /Count again/ }).click();
    await page.waitForURL(address);
    await expect.poll(lastReplyText, { timeout: 15_000 }).toBe(wholeLongReply);
    expect(await log().getByText('Stopped').count()).toBe(0);
  });

  it('highlights fenced code from a model reply, copies it, and renders math', async () => {
    const code = 'const answer: number = 42;\nfunction twice(x) {\n  return x * 2;\n}';
    await newChat('Show me code and a formula', () => ({
      chunks: ['Here:\n\n```ts\n', code, '\n```\n\nEuler: $e^{i\\pi} + 1 = 0$\n'],
    }));
    const reply = botMessages().last();
    await reply.locator('.code-block .hljs-keyword').first().waitFor();
    expect(await reply.locator('.code-block .hljs-keyword').allTextContents()).toContain('const');
    await reply.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(clipboard).toBe(code);
    await reply.locator('math').first().waitFor();
    expect(await reply.locator('math mi').allTextContents()).toContain('e');
    expect(await reply.textContent()).not.toContain('$e^');
  });

  it('keeps the newest message and its actions in view at 1280, 375 and 320 px, unless the person scrolled up', async () => {
    const api = server as unknown as TestServer;
    const token = (await page.evaluate(() => localStorage.getItem('token'))) as string;
    const owner = await loginOwner(api, 'app');
    const bots = (await call(api, '/api/v1/bot', { token })).body as { _id: string; name: string }[];
    const botId = (name: string) => bots.find((bot) => bot.name === name)?._id as string;
    // The Assistant sees pictures.
    await admin(api, owner, `/bot/${botId('Assistant')}`, { method: 'PATCH', body: { vision: true } });
    /** A conversation of ten messages, made through the API. */
    const conversation = async (bot: string, texts: string[]) => {
      const topic = (await call(api, '/api/v1/topic', { token, body: { bot: botId(bot) } })).body._id;
      for (const text of texts) {
        const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ text }),
        });
        await readEvents(response);
      }
      return `${server.url}/topics/${topic}`;
    };
    model.script(echo);
    const chat = await conversation('Assistant', ['one', 'two', 'three', 'four', 'five']);
    const picture = { name: 'chart.png', mimeType: 'image/png', buffer: await png(64, 48) };
    /** How far (px) the end of the conversation is below the view: 0 when it is in view. */
    const below = () =>
      log().evaluate((view) => Math.round(view.scrollHeight - view.scrollTop - view.clientHeight));
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    /** The newest message is complete, its end and its actions in view, with nothing to jump to. */
    const newestInView = async () => {
      const actions = botMessages().last().getByRole('button', { name: 'Regenerate' });
      await actions.waitFor();
      await expect.poll(below, { timeout: 3000 }).toBeLessThanOrEqual(1);
      const [view, row] = [await log().boundingBox(), await actions.boundingBox()];
      expect(row && view && row.y >= view.y && row.y + row.height <= view.y + view.height).toBe(true);
      expect(await jump.count()).toBe(0);
    };

    for (const [width, height] of [
      [1280, 900],
      [375, 740],
      [320, 640],
    ]) {
      await page.setViewportSize({ width, height });
      // Opened (a conversation of ten messages and more), and after a reply that comes at once (as
      // fast as the calculator writes here).
      await page.goto(chat);
      await newestInView();
      model.script(() => ({ chunks: ['2^100 ', '= ', '1267650600228229401496703205376'], delayMs: 5 }));
      await send('exact 2^100');
      await botMessages().last().getByText('2^100 = 1267650600228229401496703205376').waitFor();
      await newestInView();

      // After a picture, answered in a few words.
      await page.getByLabel('Attach files').setInputFiles(picture);
      await page.locator('.attachment-chip[data-status="ready"]').waitFor({ timeout: 15_000 });
      model.script(() => ({ chunks: ['A ', 'blue ', 'rectangle ', 'of ', 'a ', 'chart.'], delayMs: 30 }));
      await send('What is in this picture?');
      await botMessages().last().getByText('A blue rectangle of a chart.').waitFor();
      await userMessages().last().getByRole('button', { name: 'Open chart.png' }).waitFor();
      await newestInView();

      // Scrolled up while a long reply is written: the view stays, Jump to latest is offered, even
      // once the reply was stopped.
      const lines = Array.from({ length: 200 }, (_, index) => `Line ${index}.\n\n`);
      model.script(() => ({ chunks: lines, delayMs: 10 }));
      await send('Tell me a long story');
      const read = botMessages().last().getByText('Line 30.');
      await read.waitFor();
      await log().hover();
      await page.mouse.wheel(0, -400);
      await jump.waitFor();
      const where = async () => Math.round((await read.boundingBox())?.y ?? Number.NaN);
      const at = await where();
      await expect.poll(lastReplyText).toContain('Line 45.');
      await page.getByRole('button', { name: 'Stop' }).click();
      await log().getByRole('button', { name: 'Continue' }).waitFor();
      expect(await where()).toBe(at);
      await jump.click();
      await expect.poll(below).toBeLessThanOrEqual(1);
      await expect.poll(() => jump.count()).toBe(0);

      // Continue goes on with the same reply, which stays in view to its actions.
      const before = await userMessages().count();
      const stopped = (await lastReplyText()) ?? '';
      model.script(() => ({ chunks: ['And ', 'so ', 'the ', 'story ', 'ends.'], delayMs: 30 }));
      await log().getByRole('button', { name: 'Continue' }).click();
      await botMessages().last().getByText('And so the story ends.', { exact: false }).waitFor();
      await newestInView();
      expect(await userMessages().count()).toBe(before);
      const continued = (await lastReplyText()) ?? '';
      expect(continued.startsWith(stopped)).toBe(true);
      expect(continued.endsWith('And so the story ends.')).toBe(true);
      expect(await log().getByText('Stopped').count()).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('translates a message in place and back, and the whole conversation at once, asking once per text', async () => {
    // English is never translated: no Translate action.
    expect(await page.getByRole('button', { name: 'Translate' }).count()).toBe(0);
    await newChat('Good morning', (request) =>
      isTranslation(request)
        ? { chunks: [`[de] ${textOf(request.messages.at(-1)?.content)}`] }
        : echo(request),
    );
    await botMessages().last().getByText('You said: Good morning').waitFor();
    const address = page.url();
    await page.goto(`${address}?language=de`);
    await page.waitForURL(address);
    const reply = botMessages().last();
    await reply.getByRole('button', { name: 'Übersetzen' }).click();
    await reply.getByText('[de] You said: Good morning').waitFor();
    await reply.getByRole('button', { name: 'Original anzeigen' }).click();
    await reply.getByText('You said: Good morning').waitFor();
    expect(await reply.textContent()).not.toContain('[de]');

    await page.getByRole('button', { name: 'Alles übersetzen' }).click();
    await userMessages().last().getByText('[de] Good morning').waitFor();
    await reply.getByText('[de] You said: Good morning').waitFor();
    await page.getByRole('button', { name: 'Alles übersetzen' }).click();
    await userMessages().last().getByText('Good morning', { exact: true }).waitFor();
    // Each text went to the provider once, however often it was shown translated.
    const asked = model.requests
      .filter(isTranslation)
      .map((request) => request.messages.at(-1)?.content)
      .filter((text) => text === 'Good morning' || text === 'You said: Good morning');
    expect(asked.sort()).toEqual(['Good morning', 'You said: Good morning']);
  });
});
