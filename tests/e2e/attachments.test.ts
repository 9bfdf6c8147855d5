import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, loginOwner } from '../server/admin/support';
import { makePdf, png } from '../server/files/support';
import { call, signUp, type TestServer } from '../support/app';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { imagesOf, type OpenAiDouble, startOpenAiDouble, textOf, toolSteps } from '../support/openai-double';
import { type RunningServer, startServer } from '../support/server';

type FilePayload = { name: string; mimeType: string; buffer: Buffer };
/** Uploads are read on the server (a PDF in a worker thread): slow on a loaded machine, never a hang. */
const slow = { timeout: 30_000 };

describe('attachments in the composer and in messages, in Chromium against npm start', () => {
  let server: RunningServer;
  let model: OpenAiDouble;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let bots: Record<string, string>;
  let token: string;
  let picture: FilePayload;
  let report: FilePayload;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startServer(
      { OPENAI_BASE_URL: model.url, BUILTIN_TOKEN_DELAY_MS: '5' },
      { compiled: true },
    );
    const api = server as unknown as TestServer;
    // The Assistant (answered by the OpenAI double) can see images; ELIZA, built in, cannot.
    const owner = await loginOwner(api, 'app');
    const list = await admin(api, owner, '/bot');
    bots = Object.fromEntries(list.body.map((bot: { name: string; _id: string }) => [bot.name, bot._id]));
    const vision = await admin(api, owner, `/bot/${bots.Assistant}`, {
      method: 'PATCH',
      body: { vision: true },
    });
    expect(vision.body).toMatchObject({ vision: true });
    ({ token } = await signUp(api));
    const mine = await call(api, '/api/v1/bot', { token });
    expect(mine.body.find((bot: { _id: string }) => bot._id === bots.Assistant)).toMatchObject({
      vision: true,
    });
    picture = { name: 'chart.png', mimeType: 'image/png', buffer: await png(64, 48) };
    report = {
      name: 'report.pdf',
      mimeType: 'application/pdf',
      buffer: await makePdf(1, { text: 'Quarterly lighthouse report' }),
    };
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addInitScript((stored) => localStorage.setItem('token', stored), token);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  const openChat = async (target: Page, bot: string) => {
    await target.goto(`${server.url}/topics/new?bot=${bots[bot]}`);
    await target.getByLabel('Message').waitFor();
  };
  const chip = (target: Page, name: string) =>
    target.getByRole('list', { name: 'Attached files' }).locator('li').filter({ hasText: name });
  const sendButton = (target: Page) => target.getByRole('button', { name: 'Send', exact: true });

  it('attaches by the picker, waits for the uploads, and sends an image a vision bot receives', async () => {
    await openChat(page, 'Assistant');
    const picker = page.getByLabel('Attach files');
    expect(await picker.getAttribute('type')).toBe('file');
    expect(await picker.getAttribute('multiple')).not.toBeNull();
    await picker.setInputFiles([picture, report]);
    await chip(page, 'chart.png').waitFor();
    await chip(page, 'report.pdf').waitFor();
    // Each chip has a Remove named after its file, and is ready once uploaded.
    await page.getByRole('button', { name: 'Remove chart.png' }).waitFor();
    await page.getByRole('button', { name: 'Remove report.pdf' }).waitFor();
    await expect.poll(() => page.locator('.attachment-chip[data-status="ready"]').count(), slow).toBe(2);
    model.script(() => ({ chunks: ['A blue ', 'rectangle.'] }));
    const before = model.requests.length;
    await page.getByLabel('Message').fill('What is in this picture?');
    await sendButton(page).click();
    await expect
      .poll(() => page.locator('.message.bot').last().textContent(), slow)
      .toContain('A blue rectangle.');
    // The composer is empty again; the message carries its files.
    expect(await page.locator('.attachment-chip').count()).toBe(0);
    const request = model.requests.slice(before).at(-1);
    const last = request?.messages.at(-1);
    expect(imagesOf(last?.content)).toEqual([expect.stringMatching(/^data:image\/png;base64,/)]);
    expect(textOf(last?.content)).toContain('Quarterly lighthouse report');
    const sent = page.locator('.message.user').last();
    await sent.getByRole('button', { name: 'Open chart.png' }).waitFor();
    await sent.getByRole('button', { name: 'Download report.pdf' }).waitFor();
    // The thumbnail is loaded with the bearer token and shown as a data: URL.
    await expect
      .poll(() => sent.locator('.file-thumbnail img').getAttribute('src'))
      .toMatch(/^data:image\/webp;base64,/);
  });

  it('opens a thumbnail larger in a dialog that Escape closes, focus back on the thumbnail', async () => {
    const thumbnail = page.locator('.message.user').last().getByRole('button', { name: 'Open chart.png' });
    await thumbnail.click();
    const dialog = page.getByRole('dialog', { name: 'chart.png' });
    await dialog.waitFor();
    await expect
      .poll(() => dialog.getByRole('img', { name: 'chart.png' }).getAttribute('src'))
      .toMatch(/^data:image\/png/);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await thumbnail.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('attaches files dropped on the chat and images pasted into the message box', async () => {
    await openChat(page, 'Assistant');
    const chat = page.locator('.chat');
    await chat.evaluate((element) => {
      const files = new DataTransfer();
      files.items.add(new File(['Dropped notes'], 'dropped.txt', { type: 'text/plain' }));
      for (const type of ['dragenter', 'dragover', 'drop'])
        element.dispatchEvent(new DragEvent(type, { dataTransfer: files, bubbles: true, cancelable: true }));
    });
    await chip(page, 'dropped.txt').waitFor();
    const bytes = [...picture.buffer];
    await page.getByLabel('Message').evaluate((element, data) => {
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(data)], 'pasted.png', { type: 'image/png' }));
      element.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: files, bubbles: true, cancelable: true }),
      );
    }, bytes);
    await chip(page, 'pasted.png').waitFor();
    await expect.poll(() => page.locator('.attachment-chip[data-status="ready"]').count(), slow).toBe(2);
    // Remove takes a file off the message.
    await page.getByRole('button', { name: 'Remove dropped.txt' }).click();
    await expect.poll(() => chip(page, 'dropped.txt').count()).toBe(0);
    expect(await chip(page, 'pasted.png').count()).toBe(1);
  });

  it("shows the server's refusal on a chip, with Retry and Remove", async () => {
    await openChat(page, 'Assistant');
    await page.getByLabel('Attach files').setInputFiles({
      name: 'page.html',
      mimeType: 'text/html',
      buffer: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
    });
    const refused = chip(page, 'page.html');
    await expect.poll(() => refused.getAttribute('data-status'), slow).toBe('uploadFailed');
    expect(await refused.getByRole('alert').textContent()).toMatch(/accepted|not accepted|supported/i);
    await refused.getByRole('button', { name: 'Retry page.html' }).waitFor();
    // Send waits, and says why.
    await page.getByLabel('Message').fill('Here it is');
    expect(await sendButton(page).isDisabled()).toBe(true);
    await page.getByText('Retry or remove the file that could not be uploaded.').waitFor();
    await refused.getByRole('button', { name: 'Remove page.html' }).click();
    await expect.poll(() => sendButton(page).isDisabled()).toBe(false);
  });

  it('keeps at most 10 files a message and says so', async () => {
    await openChat(page, 'Assistant');
    const files = Array.from({ length: 11 }, (_, index) => ({
      name: `note-${index + 1}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`Note ${index + 1}`),
    }));
    await page.getByLabel('Attach files').setInputFiles(files);
    await page.getByText('At most 10 files can go with one message.').waitFor();
    expect(await page.locator('.attachment-chip').count()).toBe(10);
  });

  it('gives a refused image back to the composer: the reason shown, text and files kept', async () => {
    await openChat(page, 'ELIZA');
    await page.getByLabel('Attach files').setInputFiles(picture);
    await expect.poll(() => page.locator('.attachment-chip[data-status="ready"]').count(), slow).toBe(1);
    await page.getByLabel('Message').fill('Look at my picture');
    await sendButton(page).click();
    const refusal = page.locator('.composer-problem');
    await expect.poll(() => refusal.textContent()).toContain('ELIZA cannot see images.');
    expect(await refusal.getAttribute('role')).toBe('alert');
    expect(await page.getByLabel('Message').inputValue()).toBe('Look at my picture');
    await page.getByRole('button', { name: 'Remove chart.png' }).waitFor();
    expect(await page.locator('.message.user').count()).toBe(0);
    // Without the image, the same text goes through.
    await page.getByRole('button', { name: 'Remove chart.png' }).click();
    await sendButton(page).click();
    await expect.poll(() => page.locator('.message.bot').count()).toBe(1);
    expect(await refusal.count()).toBe(0);
  });

  it('fits a 375 px screen with chips of long names', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await openChat(phone, 'Assistant');
    await phone.getByLabel('Attach files').setInputFiles([
      { ...picture, name: 'a-very-long-file-name-for-the-quarterly-lighthouse-report-2026.png' },
      { ...report, name: 'another-rather-long-document-name-that-would-not-fit.pdf' },
      { name: 'short.txt', mimeType: 'text/plain', buffer: Buffer.from('short') },
    ]);
    await expect.poll(() => phone.locator('.attachment-chip[data-status="ready"]').count(), slow).toBe(3);
    expect(await layoutProblems(phone)).toEqual([]);
    await phone.close();
  });

  it('shows an image generate_image made in the reply, opens it larger (axe, both widths), downloads it', async () => {
    const api = server as unknown as TestServer;
    const owner = await loginOwner(api, 'app');
    const images = { provider: null, model: 'gpt-image-1', price: 0 };
    expect((await admin(api, owner, '/settings', { method: 'PATCH', body: { images } })).status).toBe(200);
    expect(
      (
        await admin(api, owner, `/bot/${bots.Assistant}`, {
          method: 'PATCH',
          body: { tools: ['generate_image'] },
        })
      ).status,
    ).toBe(200);
    model.script(
      toolSteps([
        { call: { name: 'generate_image', arguments: { prompt: 'A blue lighthouse' } } },
        { answer: () => 'Here is your lighthouse.' },
      ]),
    );
    await openChat(page, 'Assistant');
    await page.getByLabel('Message').fill('Draw a blue lighthouse');
    await sendButton(page).click();
    const reply = page.locator('.message.bot').last();
    await expect.poll(() => reply.textContent(), slow).toContain('Here is your lighthouse.');
    const thumbnail = reply
      .getByRole('list', { name: 'Generated images' })
      .getByRole('button', { name: 'Open A blue lighthouse.png' });
    await expect
      .poll(() => thumbnail.locator('img').getAttribute('src'))
      .toMatch(/^data:image\/webp;base64,/);
    const axeTotals = noViolations();
    const opened = async (target: Page, opener: typeof thumbnail, width: number) => {
      await opener.click();
      const dialog = target.getByRole('dialog', { name: 'A blue lighthouse.png' });
      await dialog.waitFor();
      await expect
        .poll(() => dialog.getByRole('img', { name: 'A blue lighthouse.png' }).getAttribute('src'))
        .toMatch(/^data:image\/png/);
      expect(blocking(await runAxe(target, axeTotals)), `axe: the image opened at ${width} px`).toEqual([]);
      expect(await layoutProblems(target), `layout: the image opened at ${width} px`).toEqual([]);
      return dialog;
    };
    const dialog = await opened(page, thumbnail, 1280);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('A blue lighthouse.png');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await thumbnail.evaluate((element) => element === document.activeElement)).toBe(true);
    // The same conversation read afresh on a 320 px phone: the image is part of the stored reply.
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 320, height: 640 });
    await phone.goto(page.url());
    const stored = phone
      .locator('.message.bot')
      .last()
      .getByRole('button', { name: 'Open A blue lighthouse.png' });
    await stored.waitFor();
    await opened(phone, stored, 320);
    await phone.close();
  });
});
