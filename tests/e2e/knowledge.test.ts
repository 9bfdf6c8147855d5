import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfOf } from '../server/files/support';
import { signUp, type TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';

/** The passage the PDF holds and the Librarian should quote. */
const passage = 'Bicycles are parked in the courtyard behind building C';

/** A real PDF made by pdfkit: a title page, then the page with the passage. */
const makePdf = () =>
  pdfOf((document) => {
    document.addPage({ margin: 40 });
    document.fontSize(18).text('Office handbook');
    document.addPage({ margin: 40 });
    document.fontSize(11).text(`Commuting. ${passage}, next to the loading bay. Cars use the public garage.`);
  });

describe('knowledge bases in Chromium against npm start: an admin builds one, the Librarian quotes it', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let librarianId: string;
  const baseName = `Handbook ${Date.now().toString(36)}`;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_TOKEN_DELAY_MS: '0', RATE_LIMIT_OTP_PER_IP_PER_HOUR: '1000' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A new member, logged in, in a new chat with the Librarian. */
  const librarianChat = async () => {
    const account = await signUp(server as unknown as TestServer);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: `Hello, ${account.displayName}` }).waitFor();
    await page.goto(`${server.url}/topics/new?bot=${encodeURIComponent(librarianId)}`);
    return page;
  };

  const adminSection = async (name: string) => {
    await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name, exact: true }).click();
    await admin.getByRole('heading', { name, level: 1 }).waitFor();
  };

  it('the owner creates a base: a name is required, said next to the field, which takes focus', async () => {
    admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await admin.goto(`${server.url}/login`);
    await admin.getByLabel('Email').fill('admin@parley.test');
    await admin.getByLabel('Password', { exact: true }).fill('parley-admin-1');
    await admin.getByRole('button', { name: 'Log in' }).click();
    await admin.waitForURL(/\/list$/);
    await admin.goto(`${server.url}/admin`);
    await admin.getByRole('heading', { name: 'Bots', level: 1 }).waitFor();
    await adminSection('Knowledge');

    await admin.getByRole('button', { name: 'New knowledge base' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New knowledge base' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const name = dialog.getByLabel('Name');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.evaluate((field) => field === document.activeElement)).toBe(true);
    expect(await dialog.textContent()).toContain('Enter a name.');
    await name.fill(baseName);
    await dialog.getByLabel('Description').fill('How the office works');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('status').filter({ hasText: 'Knowledge base created' }).waitFor();
    const row = admin.getByRole('row').filter({ has: admin.getByRole('link', { name: baseName }) });
    await row.waitFor();
    expect(await row.textContent()).toContain('How the office works');
  });

  it('uploads a PDF made with pdfkit and sees it queued, then ready, without reloading', async () => {
    await admin.getByRole('link', { name: baseName }).click();
    await admin.getByRole('heading', { name: baseName, level: 1 }).waitFor();
    // Upload with no file chosen: the field says so.
    await admin.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => admin.getByLabel('Document').getAttribute('aria-invalid')).toBe('true');
    await admin.getByLabel('Document').setInputFiles({
      name: 'handbook.pdf',
      mimeType: 'application/pdf',
      buffer: await makePdf(),
    });
    await admin.getByRole('button', { name: 'Upload' }).click();
    await admin.getByRole('status').filter({ hasText: 'Document uploaded' }).waitFor();
    const document = admin.getByRole('row').filter({ hasText: 'handbook.pdf' });
    await document.waitFor();
    // The page reads the base again by itself until the document settles.
    await expect
      .poll(() => document.locator('.document-status').textContent(), { timeout: 60_000 })
      .toBe('Ready');
  });

  it('an image is refused with the server’s reason, next to the file field', async () => {
    // A 1×1 PNG: a knowledge base takes documents with text only (415).
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    await admin
      .getByLabel('Document')
      .setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: png });
    await admin.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => admin.getByLabel('Document').getAttribute('aria-invalid')).toBe('true');
    expect(await admin.locator('.upload-form .field-error').textContent()).toMatch(/documents with text/);
    expect(await admin.getByRole('row').filter({ hasText: 'pixel.png' }).count()).toBe(0);
  });

  it('binds the base to the Librarian in the bot editor', async () => {
    await adminSection('Bots');
    await admin.getByRole('link', { name: 'Librarian', exact: true }).click();
    await admin.waitForURL(/\/admin\/bots\/[^/]+$/);
    librarianId = decodeURIComponent(new URL(admin.url()).pathname.split('/').at(-1) as string);
    await admin.getByRole('heading', { name: 'Librarian', level: 1 }).waitFor();
    expect(await admin.getByLabel('Engine').inputValue()).toBe('librarian');
    const knowledge = admin.getByRole('group', { name: 'Knowledge bases' });
    await knowledge.getByLabel(baseName).check();
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await admin.reload();
    await admin.getByRole('heading', { name: 'Librarian', level: 1 }).waitFor();
    expect(await admin.getByRole('group', { name: 'Knowledge bases' }).getByLabel(baseName).isChecked()).toBe(
      true,
    );
  });

  it('a member asks the Librarian; the answer quotes the passage with [1]', async () => {
    const page = await librarianChat();
    await page.getByLabel('Message').fill('Where are bicycles parked?');
    await page.getByLabel('Message').press('Enter');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    const reply = page.locator('.message.bot').last();
    await expect.poll(() => reply.textContent(), { timeout: 30_000 }).toContain(passage);
    expect(await reply.textContent()).toContain('[1]');
  });

  it('a member attaches a PDF and asks the Librarian; [1] opens the passage with its file and page', async () => {
    const page = await librarianChat();
    await page.getByLabel('Attach files').setInputFiles({
      name: 'commute.pdf',
      mimeType: 'application/pdf',
      buffer: await makePdf(),
    });
    await page.locator('.attachment-chip[data-status="ready"]').waitFor();
    await page.getByLabel('Message').fill('Where are bicycles parked?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = page.locator('.message.bot').last();
    await expect.poll(() => reply.textContent(), { timeout: 30_000 }).toContain(passage);

    // The reply's [1] is a link; it opens the passage, titled with its number, naming the file and page.
    const marker = reply.getByRole('link', { name: '[1]' }).first();
    await marker.click();
    const panel = page.getByRole('dialog', { name: 'Source [1]' });
    await panel.waitFor();
    expect(await panel.textContent()).toMatch(/(commute|handbook)\.pdf, page 2/);
    expect(await panel.locator('blockquote').textContent()).toContain(passage);
    // Escape closes it and focus goes back to the marker.
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await marker.evaluate((link) => link === document.activeElement)).toBe(true);
    // The same passage from the sources listed under the reply.
    await reply.getByRole('button', { name: /^\[1\] (commute|handbook)\.pdf, page 2$/ }).click();
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => panel.count()).toBe(0);
  });
});
