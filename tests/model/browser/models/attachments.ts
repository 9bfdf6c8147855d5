import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type AttachmentEntry, attachmentsMachine } from '../../../../machines/attachments';
import { call, signUp, type TestServer } from '../../../support/app';
import type { BrowserModel, ModelEvent, PathWorld } from '../runner';
import { apiOf, storeToken } from './session';

const text = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Lighthouse notes') };
/** A 1×1 PNG: what a bot without vision (ELIZA) refuses. */
const image = {
  name: 'dot.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
};
const typed = 'Here is a file';

/** Requests the path holds until one of its steps lets them go (or fails them, as a lost network does). */
class Held {
  private routes: Route[] = [];
  async next(): Promise<Route> {
    const deadline = Date.now() + 15_000;
    while (!this.routes.length) {
      if (Date.now() > deadline) throw new Error('the app never made the request');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.routes.shift() as Route;
  }
  async hold(page: Page, method: string, path: RegExp) {
    await page.route(
      (url) => path.test(url.pathname),
      (route) => {
        if (route.request().method() !== method) return route.fallback();
        this.routes.push(route);
      },
    );
  }
}

interface AttachmentsWorld {
  file: typeof text;
  uploads: Held;
  messages: Held;
}
const dataOf = (world: PathWorld) => world.data as unknown as AttachmentsWorld;
const entryOf = (snapshot: AnyMachineSnapshot) => (snapshot.context.files as AttachmentEntry[])[0];
const stored = { _id: 'f1', name: 'notes.txt', type: 'text/plain', size: 16 };

/**
 * The composer's files in a chat with ELIZA: one file picked, its upload held until the path lets it
 * through (or fails it as a lost network does), retried, removed, sent; a picture sent to ELIZA, who
 * cannot see, comes back with the message (the message's request held until then).
 */
export const attachmentsBrowserModel: BrowserModel = {
  name: 'attachments',
  chainWalks: true,
  machine: attachmentsMachine,
  events: [
    { type: 'ADD', files: [{ name: 'notes.txt', type: 'text/plain', size: 16 }] },
    { type: 'FILE_UPLOADED', key: 'file-1', file: stored },
    { type: 'FILE_FAILED', key: 'file-1' },
    { type: 'FILE_RETRYING', key: 'file-1' },
    { type: 'REMOVE', key: 'file-1' },
    { type: 'CLEAR' },
    { type: 'RESTORE', files: [stored] },
  ],
  possible: (snapshot, event) => {
    const entry = entryOf(snapshot);
    switch (event.type) {
      case 'ADD':
        return snapshot.context.added === 0;
      case 'FILE_UPLOADED':
      case 'FILE_FAILED':
        return entry?.status === 'uploading';
      case 'FILE_RETRYING':
        return entry?.status === 'uploadFailed';
      case 'REMOVE':
        return entry !== undefined;
      case 'CLEAR':
        return snapshot.matches('ready');
      default:
        return snapshot.matches('sent');
    }
  },
  start: async (world: PathWorld) => {
    const { page, events } = world;
    world.shared.account ??= await signUp(apiOf(world));
    const account = world.shared.account as { token: string };
    if (!world.shared.eliza) {
      const bots = await call(world.server as unknown as TestServer, '/api/v1/bot', { token: account.token });
      world.shared.eliza = (bots.body as { _id: string; name: string }[]).find(
        (bot) => bot.name === 'ELIZA',
      )?._id;
    }
    await storeToken(world, account.token);
    const refused = events.some((event) => event.type === 'RESTORE');
    const data: AttachmentsWorld = {
      file: refused ? image : text,
      uploads: new Held(),
      messages: new Held(),
    };
    Object.assign(world.data, data);
    await data.uploads.hold(page, 'POST', /^\/api\/v1\/file$/);
    if (refused) await data.messages.hold(page, 'POST', /^\/api\/v1\/topic\/[^/]+\/message$/);
    await page.goto(`${world.server.url}/topics/new?bot=${world.shared.eliza}`);
  },
  perform: async (world: PathWorld, event: ModelEvent) => {
    const { page } = world;
    const { file, uploads, messages } = dataOf(world);
    switch (event.type) {
      case 'ADD':
        return page.getByLabel('Attach files').setInputFiles(file);
      case 'FILE_UPLOADED':
        return (await uploads.next()).continue();
      case 'FILE_FAILED':
        return (await uploads.next()).abort('failed');
      case 'FILE_RETRYING':
        return page.getByRole('button', { name: `Retry ${file.name}` }).click();
      case 'REMOVE':
        return page.getByRole('button', { name: `Remove ${file.name}` }).click();
      case 'CLEAR':
        await page.getByLabel('Message').fill(typed);
        return page.getByRole('button', { name: 'Send', exact: true }).click();
      default:
        return (await messages.next()).continue();
    }
  },
  expectScreen: async (world: PathWorld, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    const { file } = dataOf(world);
    const chips = page.locator('.attachment-chip');
    const waiting = page.locator('.composer-waiting');
    await page.getByLabel('Attach files').waitFor({ state: 'attached' });
    if (snapshot.matches('empty') || snapshot.matches('sent')) {
      expect(await chips.count()).toBe(0);
      expect(await waiting.count()).toBe(0);
    } else {
      expect(await chips.count()).toBe(1);
      expect(await chips.getAttribute('data-status')).toBe(entryOf(snapshot).status);
      expect(await page.getByRole('button', { name: `Remove ${file.name}` }).isVisible()).toBe(true);
    }
    if (snapshot.matches('uploading')) {
      expect(await page.getByRole('progressbar', { name: `Uploading ${file.name}` }).isVisible()).toBe(true);
      expect(await waiting.textContent()).toBe('Send waits until the files are uploaded.');
    }
    if (snapshot.matches('needsAttention')) {
      expect(await chips.getByRole('alert').textContent()).toContain('Cannot reach the server');
      expect(await page.getByRole('button', { name: `Retry ${file.name}` }).isVisible()).toBe(true);
      expect(await waiting.textContent()).toBe('Retry or remove the file that could not be uploaded.');
    }
    if (snapshot.matches('ready')) expect(await waiting.count()).toBe(0);
    // Sent: the message carries the file; given back: the reason shows and the text is kept.
    if (snapshot.matches('sent'))
      expect(
        await page
          .locator('.message.user')
          .getByRole('button', { name: new RegExp(`(Download|Open) ${file.name}`) })
          .isVisible(),
      ).toBe(true);
    if (snapshot.matches('ready') && snapshot.context.added > 1) {
      expect(await page.locator('.composer-problem').textContent()).toContain('cannot see images');
      expect(await page.getByLabel('Message').inputValue()).toBe(typed);
    }
  },
};
