import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { importerMachine } from '../../../../machines/importer';
import { call, signUp, uniqueTag } from '../../../support/app';
import type { RunningServer } from '../../../support/server';
import type { BrowserModel, PathWorld } from '../runner';
import { apiOf, openProfile, statesAlong, storeToken } from './session';

/** Bytes of one connection kept back until the path lets them go. */
interface Gate {
  held: Buffer[];
  open: boolean;
}

/**
 * The network between the browser and the server, as a TCP relay that can hold the answers to some
 * requests (their bytes kept back until the path lets them go), and an import's upload past its
 * start: the browser stops sending the file when its buffers are full, its progress shows a share.
 */
async function startImportRelay(target: RunningServer) {
  const sockets = new Set<Socket>();
  /** Whether the next requests of these kinds are held: the projects' answers, an import's upload and answer. */
  const rules = { projects: false, import: false };
  let releases = {
    projects: [] as (() => void)[],
    upload: [] as (() => void)[],
    answer: [] as (() => void)[],
  };
  const release = (gate: Gate, write: (bytes: Buffer) => void) => {
    gate.open = true;
    for (const bytes of gate.held.splice(0)) write(bytes);
  };
  const relay = createServer((client) => {
    const upstream = connect(Number(new URL(target.url).port), '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    let answer: Gate = { held: [], open: true };
    let upload: Gate = { held: [], open: true };
    client.on('data', (bytes) => {
      const head = bytes.toString('latin1', 0, 32);
      if (/^[A-Z]+ \//.test(head)) {
        // A new request on this connection: held or not, as the rules say.
        const isImport = rules.import && head.startsWith('POST /api/v1/import ');
        const isProjects = rules.projects && head.startsWith('GET /api/v1/project ');
        answer = { held: [], open: !isImport && !isProjects };
        upload = { held: [], open: !isImport };
        const [itsAnswer, itsUpload] = [answer, upload];
        const answered = () => release(itsAnswer, (held) => client.write(held));
        if (isProjects) releases.projects.push(answered);
        if (isImport) {
          releases.answer.push(answered);
          releases.upload.push(() => {
            release(itsUpload, (held) => upstream.write(held));
            client.resume();
          });
          // The request's head and the file's start go; the browser's buffers fill with the rest.
          upstream.write(bytes.subarray(0, 16 * 1024));
          upload.held.push(bytes.subarray(16 * 1024));
          client.pause();
          return;
        }
      }
      if (upload.open) upstream.write(bytes);
      else {
        upload.held.push(bytes);
        client.pause();
      }
    });
    upstream.on('data', (bytes) => {
      if (answer.open) client.write(bytes);
      else answer.held.push(bytes);
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as { port: number };
  const run = (list: (() => void)[]) => {
    for (const next of list.splice(0)) next();
  };
  return {
    url: `http://localhost:${port}`,
    rules,
    /** Answers the projects' requests held, and lets later ones through (they may come after this). */
    releaseProjects: () => {
      rules.projects = false;
      run(releases.projects);
    },
    releaseUpload: () => run(releases.upload),
    releaseAnswer: () => run(releases.answer),
    /** A new walk: nothing held, every connection of the last one cut. */
    reset: () => {
      Object.assign(rules, { projects: false, import: false });
      releases = { projects: [], upload: [], answer: [] };
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}
type ImportRelay = Awaited<ReturnType<typeof startImportRelay>>;

const project = { _id: 'p1', name: 'Thesis' };
const wrongFile =
  'This JSON holds one object, not a list of conversations: it is not a ChatGPT or Claude export (conversations.json).';

/** ChatGPT's export of one conversation (its own id, so it is never skipped), padded to `size` bytes. */
function exportOf(title: string, size: number) {
  const conversation = {
    id: `conv-${uniqueTag()}`,
    title,
    create_time: 1_700_000_000,
    update_time: 1_700_000_100,
    current_node: 'b',
    mapping: {
      root: { id: 'root', message: null, parent: null, children: ['a'] },
      a: {
        id: 'a',
        parent: 'root',
        children: ['b'],
        message: {
          author: { role: 'user' },
          create_time: 1_700_000_000,
          content: { content_type: 'text', parts: ['How do I titrate vinegar?'] },
        },
      },
      b: {
        id: 'b',
        parent: 'a',
        children: [],
        message: {
          author: { role: 'assistant' },
          create_time: 1_700_000_050,
          content: { content_type: 'text', parts: ['With sodium hydroxide and phenolphthalein.'] },
        },
      },
    },
  };
  const json = JSON.stringify([conversation]);
  return Buffer.from(json.padEnd(size, ' '));
}

/** A file big enough that the browser's buffers cannot take it whole while the relay holds it. */
const bigFile = 8 * 1024 * 1024;

const section = ({ page }: PathWorld) =>
  page.getByRole('complementary').getByRole('region', { name: 'Import conversations' });
const relayOf = (world: PathWorld) => world.shared.relay as Promise<ImportRelay>;
const stateBefore = (world: PathWorld, index: number) =>
  statesAlong(importerMachine, undefined, world)[index];

/**
 * Import conversations in the Profile panel of a new member (each path its own) with a project: the
 * projects for the picker, an export uploaded through a relay that holds the upload half-way (its
 * progress shown) and the server's answer (Importing… shown), then the result or the server's
 * refusal of a wrong file; Import without a file is refused at once.
 */
export const importerBrowserModel: BrowserModel = {
  name: 'importer',
  chainWalks: true,
  machine: importerMachine,
  events: [
    { type: 'PROJECTS', projects: [project] },
    { type: 'IMPORT', file: null, name: '', project: null },
    { type: 'IMPORT', file: new Blob(['[]']), name: 'conversations.json', project: null },
    { type: 'PROGRESS', loaded: 1, total: 4 },
    { type: 'PROGRESS', loaded: 4, total: 4 },
    { type: 'IMPORTED', result: { imported: 1, skipped: 0, topics: ['t1'] } },
    { type: 'IMPORT_FAILED', message: wrongFile },
  ],
  serialize: (snapshot) => {
    const { progress, result, error, projects } = snapshot.context;
    return JSON.stringify([snapshot.value, progress > 0, !!result, !!error, projects.length > 0]);
  },
  // The projects arrive as the section opens, before a file is chosen; the server answers once the
  // whole file is sent; the browser reports a share of it once.
  possible: (snapshot: AnyMachineSnapshot, event) => {
    const { progress, projects } = snapshot.context;
    if (event.type === 'PROJECTS') return projects.length === 0;
    if (event.type === 'IMPORT') return projects.length > 0;
    if (event.type === 'PROGRESS') return event.loaded === event.total || progress === 0;
    return snapshot.matches({ sending: 'importing' });
  },
  finish: async (shared) => {
    await (await (shared.relay as Promise<ImportRelay> | undefined))?.close();
    if (shared.folder) rmSync(shared.folder as string, { recursive: true, force: true });
  },
  start: async (world) => {
    world.shared.relay ??= startImportRelay(world.server);
    const relay = await relayOf(world);
    relay.reset();
    const server = apiOf(world);
    const member = await signUp(server);
    await call(server, '/api/v1/project', {
      token: member.token,
      body: { name: member.encrypt(project.name) },
    });
    relay.rules.projects = true;
    await storeToken(world, member.token);
    await world.page.goto(`${relay.url}/list`);
    await openProfile(world);
    await section(world).waitFor();
  },
  perform: async (world, event, index) => {
    world.data.step = index + 1;
    const relay = await relayOf(world);
    const form = section(world);
    const input = form.getByLabel('Export file (.json or .zip)');
    switch (event.type) {
      case 'PROJECTS':
        relay.releaseProjects();
        break;
      case 'IMPORT': {
        if (!event.file) {
          await input.setInputFiles([]);
          await form.getByRole('button', { name: 'Import' }).click();
          break;
        }
        // How the path ends this upload: with the server's refusal of a wrong file, or its import.
        const rest = world.events.slice(index + 1);
        const end = rest.findIndex((next) => next.type === 'IMPORT');
        const refused = (end < 0 ? rest : rest.slice(0, end)).some((next) => next.type === 'IMPORT_FAILED');
        const title = `Titration at home ${uniqueTag()}`;
        world.data.title = title;
        const buffer = refused
          ? Buffer.from('{"not": "an export"}'.padEnd(bigFile, ' '))
          : exportOf(title, bigFile);
        relay.rules.import = true;
        // From a file on disk: the browser reads it there (a buffer would cross the protocol, seconds).
        world.shared.folder ??= mkdtempSync(join(tmpdir(), 'parley-import-'));
        const file = join(world.shared.folder as string, 'conversations.json');
        writeFileSync(file, buffer);
        await input.setInputFiles(file);
        await form.getByRole('button', { name: 'Import' }).click();
        break;
      }
      case 'PROGRESS':
        if (event.loaded === event.total) relay.releaseUpload();
        break;
      case 'IMPORTED':
      case 'IMPORT_FAILED':
        relay.releaseAnswer();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const form = section(world);
    await form.waitFor({ timeout: 100 });
    const { progress, result, error, projects } = snapshot.context;
    const step = (world.data.step as number | undefined) ?? 0;
    // The picker once the projects are in.
    const picker = form.getByLabel('Into a project (optional)');
    expect(await picker.count()).toBe(projects.length ? 1 : 0);
    if (projects.length)
      expect(await picker.locator('option').allTextContents()).toEqual(['No project', project.name]);
    const sending = snapshot.matches('sending');
    await expect(form.getByRole('button', { name: 'Import' }).isDisabled()).resolves.toBe(sending);
    const bar = form.locator('progress');
    expect(await bar.count()).toBe(sending ? 1 : 0);
    if (snapshot.matches({ sending: 'uploading' })) {
      // The share sent so far, below all of it; more than nothing once the browser said so.
      const share = Number(await bar.getAttribute('value'));
      expect(share).toBeLessThan(1);
      if (progress > 0) expect(share).toBeGreaterThan(0);
      const label = await form.locator('.import-progress span').textContent();
      expect(label).toBe(`Uploading ${Math.round(share * 100)}%`);
      expect(await bar.getAttribute('aria-labelledby')).toBeTruthy();
    }
    if (snapshot.matches({ sending: 'importing' })) {
      // Every byte sent: a bar without a value, as the server reads the conversations.
      expect(await bar.getAttribute('value')).toBeNull();
      expect(await form.locator('.import-progress span').textContent()).toBe('Importing…');
    }
    const alert = form.getByRole('alert');
    expect(await alert.count()).toBe(error ? 1 : 0);
    if (error) expect(await alert.textContent()).toBe(error);
    expect(await form.getByRole('status').textContent()).toBe(
      result ? '1 conversation imported, 0 already there' : '',
    );
    expect(await form.getByRole('link', { name: 'See your conversations' }).count()).toBe(result ? 1 : 0);
    // What came in is listed at once (in the sidebar beside the panel; a phone's drawer is closed).
    const before = step ? stateBefore(world, step - 1) : null;
    if (result && before?.matches('sending') && world.viewport.name === 'desktop')
      await world.page
        .getByRole('navigation', { name: 'Conversations' })
        .getByRole('link', { name: new RegExp(world.data.title as string) })
        .waitFor({ timeout: 100 });
  },
};
