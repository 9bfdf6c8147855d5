import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { download, png, upload } from './support';

describe("files are their owner's alone: anyone else's is 404 on every route", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.close());

  it('answers 404 to another user of the organization and to a user of another organization, and changes nothing', async () => {
    const owner = await signUp(server, 'app');
    const colleague = await signUp(server, 'app');
    const stranger = await signUp(server, 'acme');
    const picture = await png(50, 50);
    const file = (await upload(server, owner, picture, 'private.png', 'image/png')).body;
    for (const other of [colleague, stranger]) {
      const as = { token: other.token, tenant: other.tenant };
      const metadata = await call(server, `/api/v1/file/${file._id}`, as);
      expect(metadata).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND', error: 'This file does not exist.' },
      });
      expect((await download(server, other, file._id)).status).toBe(404);
      expect((await download(server, other, file._id, '?thumbnail=1')).status).toBe(404);
      expect((await call(server, `/api/v1/file/${file._id}`, { ...as, method: 'DELETE' })).status).toBe(404);
      // Nor can a message of theirs carry it.
      const bots = await call(server, '/api/v1/bot', as);
      const eliza = bots.body.find((bot: { platform: { name: string } }) => bot.platform.name === 'builtin');
      const topic = await call(server, '/api/v1/topic', { ...as, body: { bot: eliza._id } });
      const sent = await call(server, `/api/v1/topic/${topic.body._id}/message`, {
        ...as,
        body: { text: 'Mine now', files: [file._id] },
      });
      expect(sent).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', field: 'files' } });
      // Their own data export does not list it.
      expect((await call(server, '/api/v1/user/me/export', as)).body.files).toEqual([]);
    }
    // The owner's token under another organization's header is refused, not answered with the file.
    const crossed = await call(server, `/api/v1/file/${file._id}`, { token: owner.token, tenant: 'acme' });
    expect(crossed.status).toBe(401);
    // Untouched: still the owner's, whole.
    const mine = await download(server, owner, file._id);
    expect([mine.status, mine.bytes.length]).toEqual([200, file.size]);
    expect((await call(server, `/api/v1/file/${file._id}`, { token: owner.token })).body).toEqual(file);
  });

  it('keeps organizations apart even for the same bytes: each has its own copy within its own quota', async () => {
    const here = await signUp(server, 'app');
    const there = await signUp(server, 'acme');
    const bytes = Buffer.from(`the same bytes ${Date.now()}`);
    const mine = await upload(server, here, bytes, 'a.txt');
    const theirs = await upload(server, there, bytes, 'a.txt');
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    await call(server, `/api/v1/file/${mine.body._id}`, { method: 'DELETE', token: here.token });
    expect((await download(server, there, theirs.body._id)).bytes.equals(bytes)).toBe(true);
  });

  it('a message carries at most 10 files', async () => {
    const user = await signUp(server);
    const bots = await call(server, '/api/v1/bot', { token: user.token });
    const topic = await call(server, '/api/v1/topic', { token: user.token, body: { bot: bots.body[0]._id } });
    const sent = await call(server, `/api/v1/topic/${topic.body._id}/message`, {
      token: user.token,
      body: { text: 'Many', files: Array.from({ length: 11 }, (_, index) => `file-${index}`) },
    });
    expect(sent).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', field: 'files' } });
  });
});
