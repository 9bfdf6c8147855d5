import { expect } from 'vitest';
import { type KnowledgeDocument, knowledgeBaseMachine } from '../../../../machines/knowledgeBase';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';
import { asOwner, networkProblem, openAdmin, ownerToken } from './adminList';

// A knowledge base's page, walked with a base of its own per path: one document in it, ready.

const notes: KnowledgeDocument = { _id: 'd1', name: 'notes.txt', status: 'ready' };
const queued: KnowledgeDocument = { _id: 'd2', name: 'pay.txt', status: 'queued' };
const settledBase = { _id: 'kb', name: 'Handbook', description: 'How we work', documents: [notes] };
const poll = 'xstate.after.pollDelay.knowledgeBase.base.watching';
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** A 1×1 PNG: a knowledge base takes documents with text only. */
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads a text document into the base through the API, as the owner. */
async function upload(world: PathWorld, baseId: string, name: string, text: string) {
  const body = new FormData();
  body.append('file', new Blob([text], { type: 'text/plain' }), name);
  const answer = await fetch(`${world.server.url}/api/v1/admin/knowledge/${baseId}/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await ownerToken(world)}`, organization: 'app' },
    body,
  });
  if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${await answer.text()}`);
}

/** Waits until the server has every document of the base ready or failed. */
async function settled(world: PathWorld, baseId: string) {
  await expect
    .poll(
      async () => {
        const base = await asOwner(world, `/api/v1/admin/knowledge/${baseId}`);
        return (base.documents as KnowledgeDocument[]).every(
          (document) => document.status === 'ready' || document.status === 'failed',
        );
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
}

const hasNotes = (base: { documents: KnowledgeDocument[] } | null) =>
  base?.documents.some((document) => document._id === notes._id) ?? false;

const documentRow = (world: PathWorld, name: string) =>
  world.page.getByRole('row').filter({ has: world.page.getByRole('button', { name: `Remove ${name}` }) });

/** The base's page of the seeded owner: the file field, the rows' Remove buttons, the dialog. */
export const knowledgeBaseBrowserModel: BrowserModel = {
  name: 'knowledgeBase',
  chainWalks: true,
  machine: knowledgeBaseMachine,
  input: { baseId: 'kb' },
  events: [
    { type: 'RETRY' },
    done('fetchBase', settledBase),
    failed('fetchBase'),
    { type: poll },
    { type: 'UPLOAD', file: new File(['Pay day is the 25th.'], 'pay.txt') },
    done('uploadDocument', queued),
    failed('uploadDocument'),
    { type: 'ASK_REMOVE', document: notes },
    { type: 'CONFIRM' },
    { type: 'CANCEL' },
    done('removeDocument'),
    failed('removeDocument'),
  ],
  serialize: (snapshot) => {
    const { base, error, target, problem, done: last } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      base?.documents.map((document: KnowledgeDocument) => document.status) ?? null,
      !!error,
      !!target,
      !!problem,
      last,
    ]);
  },
  // One thing at a time: uploads and removals while the base rests; the watch while nothing else runs.
  // A removed notes.txt is gone for the rest of the path: nothing more is done after it.
  possible: (snapshot, event) => {
    const { base, change } = snapshot.value as Record<string, string>;
    if (event.type === 'UPLOAD' || event.type === 'ASK_REMOVE')
      return base === 'settled' && hasNotes(snapshot.context.base);
    if (event.type === poll) return change === 'idle';
    if (event.type === 'xstate.error.actor.fetchBase') return change === 'idle';
    return true;
  },
  requests: {
    fetchBase: { method: 'GET', path: /^\/api\/v1\/admin\/knowledge\/[^/?]+$/ },
    // An image is refused by the server (415), its reason next to the file field.
    uploadDocument: { method: 'POST', path: /^\/api\/v1\/admin\/knowledge\/[^/]+\/file$/, fails: 'server' },
    removeDocument: { method: 'DELETE', path: /^\/api\/v1\/admin\/knowledge\/[^/]+\/file\/[^/]+$/ },
  },
  start: async (world) => {
    const { _id: id } = await asOwner(world, '/api/v1/admin/knowledge', {
      body: { name: `Handbook ${unique()}`, description: 'How we work' },
    });
    await upload(world, id, 'notes.txt', 'The office opens at nine. Visitors sign in at the desk.');
    await settled(world, id);
    world.data.baseId = id;
    await openAdmin(world, `/admin/knowledge/${id}`, 'Knowledge base');
  },
  perform: async (world, event, index) => {
    const { page, events } = world;
    const next = events[index + 1]?.type ?? '';
    switch (event.type) {
      case 'RETRY':
        await page.getByRole('button', { name: 'Retry' }).click();
        break;
      case poll:
        // The page's own timer asks again; the server is let finish indexing first.
        await settled(world, world.data.baseId as string);
        break;
      case 'UPLOAD': {
        const refused = next === 'xstate.error.actor.uploadDocument';
        await page
          .getByLabel('Document', { exact: true })
          .setInputFiles(
            refused
              ? { name: 'pixel.png', mimeType: 'image/png', buffer: pixel }
              : { name: 'pay.txt', mimeType: 'text/plain', buffer: Buffer.from('Pay day is the 25th.') },
          );
        await page.getByRole('button', { name: 'Upload' }).click();
        break;
      }
      case 'ASK_REMOVE':
        await page.getByRole('button', { name: 'Remove notes.txt' }).click();
        break;
      case 'CONFIRM':
        await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
        break;
      case 'CANCEL':
        await page.keyboard.press('Escape');
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { page } = world;
    const { base: baseState, change } = snapshot.value as Record<string, string>;
    const { base, problem, done: last } = snapshot.context;
    const main = page.getByRole('main');
    await page
      .getByRole('heading', { level: 1, name: base ? /^Handbook / : 'Knowledge base' })
      .waitFor({ timeout: 100 });
    expect(await main.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      baseState === 'reading' && !base ? 1 : 0,
    );
    const retry = main.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(baseState === 'failed' ? 1 : 0);
    if (baseState === 'failed') expect(await retry.textContent()).toMatch(networkProblem);
    const field = page.getByLabel('Document', { exact: true });
    expect(await field.count()).toBe(base ? 1 : 0);
    if (!base) return;
    await expectDisabled(page.getByRole('button', { name: /^Upload/ }), change === 'uploading');
    if (change === 'idle' && problem) expect(await errorOf(field)).toMatch(/documents with text/);
    else expect(await field.getAttribute('aria-invalid')).toBeNull();
    // While a document is under way the page says it follows it.
    const pending = base.documents.some(
      (document: KnowledgeDocument) => document.status === 'queued' || document.status === 'indexing',
    );
    expect(await main.getByText('Documents are being indexed; this page updates by itself.').count()).toBe(
      pending ? 1 : 0,
    );
    if (pending) expect(await documentRow(world, 'pay.txt').textContent()).toMatch(/Queued|Indexing|Ready/);
    const announced = main.getByRole('status').filter({ hasText: /^Document (uploaded|removed)$/ });
    expect(await announced.count()).toBe(last ? 1 : 0);
    expect(await documentRow(world, 'notes.txt').count()).toBe(hasNotes(base) ? 1 : 0);
    if (last === 'upload' && !pending)
      expect(await documentRow(world, 'pay.txt').textContent()).toContain('Ready');

    const dialog = page.getByRole('alertdialog', { name: 'Remove this document?' });
    const confirming = change === 'confirming' || change === 'removing';
    expect(await dialog.count()).toBe(confirming ? 1 : 0);
    if (confirming) {
      await expectDisabled(dialog.getByRole('button', { name: 'Remove' }), change === 'removing');
      expect(await dialog.getByRole('alert').count()).toBe(problem ? 1 : 0);
      if (problem) expect(await dialog.getByRole('alert').textContent()).toMatch(networkProblem);
    }
  },
};
