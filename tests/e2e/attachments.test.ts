import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, loginOwner } from '../server/admin/support';
import { makePdf, png } from '../server/files/support';
import { call, signUp, type TestServer } from '../support/app';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser, launchWithMicrophone } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { imagesOf, type OpenAiDouble, startOpenAiDouble, textOf, toolSteps } from '../support/openai-double';
import { type RunningServer, startServer } from '../support/server';
import { toneWav } from '../support/wav';

type FilePayload = { name: string; mimeType: string; buffer: Buffer };
/** Uploads are read on the server (a PDF in a worker thread): slow on a loaded machine, never a hang. */
const slow = { timeout: 30_000 };

describe('attachments and voice in the composer and in messages, in Chromium against npm start', () => {
  let server: RunningServer;
  let model: OpenAiDouble;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let bots: Record<string, string>;
  let token: string;
  let picture: FilePayload;
  let report: FilePayload;
  let speaking: Browser;
  let voice: Page;
  const audioFolder = mkdtempSync(join(tmpdir(), 'parley-voice-'));

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
    // The composer's microphone: Chromium's fake device plays a tone the test wrote; replies read aloud.
    expect(
      (
        await admin(api, owner, '/settings', {
          method: 'PATCH',
          body: {
            speech: { transcriptionModel: 'whisper-1', speechModel: 'tts-1', voices: ['alloy', 'nova'] },
          },
        })
      ).status,
    ).toBe(200);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addInitScript((stored) => localStorage.setItem('token', stored), token);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await speaking?.close();
    await server?.stop();
    await model?.close();
    rmSync(audioFolder, { recursive: true, force: true });
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

  it('records from the microphone with the time and Stop, and puts the transcript in the box to check', async () => {
    const wav = join(audioFolder, 'tone.wav');
    writeFileSync(wav, toneWav(3));
    speaking = await launchWithMicrophone(wav);
    const granted = await speaking.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      permissions: ['microphone'],
    });
    await granted.addInitScript((stored) => localStorage.setItem('token', stored), token);
    voice = await granted.newPage();
    const page = voice;
    await openChat(page, 'Assistant');
    const box = page.getByLabel('Message');
    await box.fill('Note:');
    await page.getByRole('button', { name: 'Voice input' }).click();
    const timer = page.getByRole('timer');
    await expect.poll(() => timer.textContent(), slow).toMatch(/Recording\s*0:0[1-9]/);
    // Stop has the focus while recording.
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    expect(await stop.evaluate((element) => element === document.activeElement)).toBe(true);
    const asked = model.audio.transcriptions.length;
    await stop.click();
    await expect.poll(() => box.inputValue(), slow).toBe('Note: Hello from the microphone');
    // The recording went as Chromium made it (WebM with Opus), sniffed and named by the server.
    expect(model.audio.transcriptions.slice(asked)).toEqual([
      expect.objectContaining({
        model: 'whisper-1',
        fileName: 'recording.webm',
        responseFormat: 'verbose_json',
      }),
    ]);
    expect(model.audio.transcriptions.at(-1)?.size).toBeGreaterThan(200);
    // Nothing was sent: the member checks it first.
    expect(await page.getByRole('log').locator('.message').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Voice input' }).isEnabled()).toBe(true);

    // Profile → Voice: "Send voice messages at once" (kept on this device), and the reading voice.
    await page.getByRole('button', { name: 'Profile' }).click();
    const panel = page.getByRole('complementary');
    const atOnce = panel.getByRole('checkbox', { name: 'Send voice messages at once' });
    await atOnce.check();
    await panel.getByLabel('Voice for reading aloud').selectOption('nova');
    expect(
      await page.evaluate(() => [localStorage.getItem('sendVoiceAtOnce'), localStorage.getItem('voice')]),
    ).toEqual(['true', 'nova']);
    await page.keyboard.press('Escape');
    await box.fill('');
    model.audio.script({ text: 'Sent by voice' });
    await page.getByRole('button', { name: 'Voice input' }).click();
    await page.getByRole('timer').waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('log').locator('.message.user').filter({ hasText: 'Sent by voice' }).waitFor(slow);
    expect(await box.inputValue()).toBe('');
    model.audio.script({});
  });

  it('says why when the browser refuses the microphone', async () => {
    const refused = await speaking.newContext({ viewport: { width: 375, height: 740 }, locale: 'en-US' });
    await refused.addInitScript((stored) => localStorage.setItem('token', stored), token);
    const phone = await refused.newPage();
    try {
      await openChat(phone, 'Assistant');
      await phone.getByRole('button', { name: 'Voice input' }).click();
      const alert = phone.locator('.voice-problem[role="alert"]');
      await expect.poll(() => alert.textContent(), slow).toContain('Parley may not use the microphone.');
      expect(await layoutProblems(phone)).toEqual([]);
      await phone.getByRole('button', { name: 'Dismiss' }).click();
      expect(await alert.count()).toBe(0);
    } finally {
      await refused.close();
    }
  });

  it('reads a reply aloud in the member’s voice, as plain text, and stops', async () => {
    model.audio.script({ speechSeconds: 30 });
    const page = voice;
    await openChat(page, 'Assistant');
    // A reply with a link and a code block.
    model.script(() => ({
      chunks: ['Read **this** ', '[link](https://example.org).\n\n', '```js\nconsole.log(1)\n```\n'],
    }));
    await page.getByLabel('Message').fill('Please answer with code');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = page.getByRole('log').locator('.message.bot').last();
    await reply.getByText('console.log(1)').waitFor();
    await reply.getByRole('button', { name: 'Read aloud' }).click();
    const stop = reply.getByRole('button', { name: 'Stop reading' });
    await stop.waitFor();
    await expect.poll(() => model.audio.speeches.length, slow).toBeGreaterThan(0);
    // The markdown read as text: the link by its words, no marks, the code not read.
    expect(model.audio.speeches.at(-1)).toMatchObject({
      model: 'tts-1',
      // The member's choice in Profile.
      voice: 'nova',
      input: 'Read this link.',
    });
    // Fetched, then playing (the audio is 30 s long, played from a blob: URL the CSP allows): Stop ends it.
    await expect.poll(() => stop.getAttribute('aria-busy'), slow).toBe('false');
    await page.waitForTimeout(500);
    expect(await stop.count()).toBe(1);
    await stop.click();
    await reply.getByRole('button', { name: 'Read aloud' }).waitFor();
    expect(await reply.locator('[role="alert"]').count()).toBe(0);
    model.audio.script({});
  });
});
