import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { type Actor, admin, loginOwner, member } from '../admin/support';
import { docxBomb, makeDocx, makePdf, png } from '../files/support';
import { createBase, settled, uploadDocument } from './support';

const count = async (server: TestServer, table: string) =>
  Number((await server.app.db.query<{ count: string }>(`select count(*) from ${table}`)).rows[0].count);

describe('knowledge bases in the admin area', () => {
  let server: TestServer;
  let owner: Actor;

  beforeAll(async () => {
    server = await startApp({ UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) });
    owner = await loginOwner(server, 'app');
  });
  afterAll(() => server?.close());

  it('creates, lists, renames and deletes a base, every write audited', async () => {
    const created = await createBase(server, owner, '  Handbook  ', 'Staff policies');
    expect(created).toEqual({
      _id: expect.any(String),
      name: 'Handbook',
      description: 'Staff policies',
      documents: [],
    });
    const list = await admin(server, owner, '/knowledge');
    expect(list.body).toContainEqual(created);
    const renamed = await admin(server, owner, `/knowledge/${created._id}`, {
      method: 'PATCH',
      body: { name: owner.encrypt('Staff handbook') },
    });
    expect(renamed.body).toEqual({ ...created, name: 'Staff handbook' });
    expect((await admin(server, owner, `/knowledge/${created._id}`)).body).toEqual(renamed.body);
    const taken = await admin(server, owner, '/knowledge', {
      body: { name: owner.encrypt('Staff handbook') },
    });
    expect(taken).toMatchObject({ status: 409, body: { code: 'NAME_TAKEN', field: 'name' } });
    expect((await admin(server, owner, `/knowledge/${created._id}`, { method: 'DELETE' })).body).toEqual({
      success: true,
    });
    expect((await admin(server, owner, `/knowledge/${created._id}`)).status).toBe(404);
    const audit = await admin(server, owner, '/audit?limit=10');
    expect(audit.body.items.map((item: { action: string }) => item.action)).toEqual(
      expect.arrayContaining(['knowledge.create', 'knowledge.update', 'knowledge.delete']),
    );
  });

  it('refuses an empty name with its field, and an unencrypted one, writing nothing', async () => {
    const before = await count(server, 'knowledge_bases');
    const empty = await admin(server, owner, '/knowledge', { body: { name: owner.encrypt('   ') } });
    expect(empty).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', field: 'name' } });
    const plain = await admin(server, owner, '/knowledge', { body: { name: 'Not encrypted' } });
    expect(plain.status).toBe(400);
    expect(await count(server, 'knowledge_bases')).toBe(before);
  });

  it('indexes an uploaded PDF and DOCX to ready, and removes a document', async () => {
    const base = await createBase(server, owner, 'Manuals');
    const pdf = await makePdf(3, { text: 'The warranty lasts two years from the date of purchase.' });
    const uploaded = await uploadDocument(server, owner, base._id, pdf, 'warranty.pdf');
    expect(uploaded).toEqual({
      status: 201,
      body: { _id: expect.any(String), name: 'warranty.pdf', status: 'queued' },
    });
    const docx = await makeDocx(['Returns', 'Items can be returned within thirty days.']);
    const word = await uploadDocument(server, owner, base._id, docx, 'returns.docx');
    expect(word.status).toBe(201);
    const ready = await settled(server, owner, base._id);
    expect(ready.documents).toEqual([
      { _id: uploaded.body._id, name: 'warranty.pdf', status: 'ready' },
      { _id: word.body._id, name: 'returns.docx', status: 'ready' },
    ]);
    const { rows } = await server.app.db.query<{ page: number | null; text: string }>(
      'select page, text from knowledge_passages where file_id = $1 order by position',
      [uploaded.body._id],
    );
    expect(rows[0]).toMatchObject({ page: 1, text: expect.stringContaining('warranty lasts two years') });
    // A document is no one's own file: the uploading admin does not see it among theirs.
    expect((await call(server, `/api/v1/file/${uploaded.body._id}`, { token: owner.token })).status).toBe(
      404,
    );

    const removed = await admin(server, owner, `/knowledge/${base._id}/file/${word.body._id}`, {
      method: 'DELETE',
    });
    expect(removed.body).toEqual({ success: true });
    expect((await admin(server, owner, `/knowledge/${base._id}`)).body.documents).toHaveLength(1);
    expect(
      (await admin(server, owner, `/knowledge/${base._id}/file/${word.body._id}`, { method: 'DELETE' }))
        .status,
    ).toBe(404);
  });

  it('refuses what /api/v1/file refuses (415, 413, 422 UNREADABLE) and images, leaving nothing half-written', async () => {
    const base = await createBase(server, owner, 'Refusals');
    const tables = ['files', 'file_blobs', 'knowledge_documents', 'knowledge_passages'];
    const before = await Promise.all(tables.map((table) => count(server, table)));
    const html = await uploadDocument(server, owner, base._id, Buffer.from('<!doctype html><p>hi'), 'a.html');
    expect(html).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_TYPE' } });
    const image = await uploadDocument(server, owner, base._id, await png(), 'a.png');
    expect(image).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_TYPE', field: 'file' } });
    const big = await uploadDocument(server, owner, base._id, Buffer.alloc(3 * 1024 * 1024, 'a'), 'big.txt');
    expect(big).toMatchObject({ status: 413, body: { code: 'FILE_TOO_LARGE' } });
    const bomb = await uploadDocument(server, owner, base._id, docxBomb(200), 'bomb.docx');
    expect(bomb.status).toBe(413);
    const cut = (await makePdf(2)).subarray(0, 600);
    const broken = await uploadDocument(server, owner, base._id, cut, 'cut.pdf');
    expect(broken).toMatchObject({ status: 422, body: { code: 'UNREADABLE' } });
    expect(await Promise.all(tables.map((table) => count(server, table)))).toEqual(before);
    expect((await admin(server, owner, `/knowledge/${base._id}`)).body.documents).toEqual([]);
  });

  it('deletes the documents with their base, but keeps a blob another file still is', async () => {
    const user = await signUp(server);
    const bytes = Buffer.from(`Shared notes ${Date.now()}: the meeting is on Tuesday.`);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'notes.txt');
    const mine = await fetch(`${server.url}/api/v1/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(mine.status).toBe(201);
    const base = await createBase(server, owner, 'Shared');
    const document = await uploadDocument(server, owner, base._id, bytes, 'notes.txt');
    const only = await uploadDocument(
      server,
      owner,
      base._id,
      Buffer.from(`Only here ${Date.now()}`),
      'only.txt',
    );
    await settled(server, owner, base._id);
    const blobs = await count(server, 'file_blobs');
    await admin(server, owner, `/knowledge/${base._id}`, { method: 'DELETE' });
    const { rows } = await server.app.db.query('select 1 from files where id = any($1::text[])', [
      [document.body._id, only.body._id],
    ]);
    expect(rows).toEqual([]);
    expect(await count(server, 'file_blobs')).toBe(blobs - 1);
    const kept = await call(server, `/api/v1/file/${((await mine.json()) as { _id: string })._id}/content`, {
      token: user.token,
    });
    expect(kept.body).toBe(bytes.toString());
  });

  it("binds bases to bots: only the organization's, only model bots and the Librarian", async () => {
    const base = await createBase(server, owner, 'Bindable');
    const bots = Object.fromEntries(
      (await admin(server, owner, '/bot')).body.map((bot: { name: string; _id: string }) => [
        bot.name,
        bot._id,
      ]),
    );
    const bound = await admin(server, owner, `/bot/${bots.Assistant}`, {
      method: 'PATCH',
      body: { knowledge: [base._id] },
    });
    expect(bound.body).toMatchObject({ knowledge: [base._id], contextTokens: 8000, vision: false });
    const librarian = await admin(server, owner, `/bot/${bots.Librarian}`, {
      method: 'PATCH',
      body: { knowledge: [base._id] },
    });
    expect(librarian.body).toMatchObject({ engine: 'librarian', knowledge: [base._id], price: 0 });
    const eliza = await admin(server, owner, `/bot/${bots.ELIZA}`, {
      method: 'PATCH',
      body: { knowledge: [base._id] },
    });
    expect(eliza).toMatchObject({ status: 400, body: { field: 'knowledge' } });
    const acmeOwner = await loginOwner(server, 'acme');
    const foreign = await createBase(server, acmeOwner, 'Acme secrets');
    const crossed = await admin(server, owner, `/bot/${bots.Assistant}`, {
      method: 'PATCH',
      body: { knowledge: [foreign._id] },
    });
    expect(crossed).toMatchObject({ status: 404, body: { field: 'knowledge' } });
    // Deleting a base takes it off the bots that read it.
    await admin(server, owner, `/knowledge/${base._id}`, { method: 'DELETE' });
    const after = (await admin(server, owner, '/bot')).body.find(
      (bot: { _id: string }) => bot._id === bots.Assistant,
    );
    expect(after.knowledge).toEqual([]);
  });

  it("answers 404 for another organization's base and document on every route, 403 to a member", async () => {
    const acmeOwner = await loginOwner(server, 'acme');
    const theirs = await createBase(server, acmeOwner, `Private ${Date.now()}`);
    const document = await uploadDocument(
      server,
      acmeOwner,
      theirs._id,
      Buffer.from('Acme plans'),
      'plans.txt',
    );
    const routes: [string, string, unknown?][] = [
      ['GET', `/knowledge/${theirs._id}`],
      ['PATCH', `/knowledge/${theirs._id}`, { name: owner.encrypt('Mine') }],
      ['DELETE', `/knowledge/${theirs._id}/file/${document.body._id}`],
      ['DELETE', `/knowledge/${theirs._id}`],
    ];
    for (const [method, path, body] of routes)
      expect((await admin(server, owner, path, { method, body })).status, `${method} ${path}`).toBe(404);
    expect((await uploadDocument(server, owner, theirs._id, Buffer.from('x'), 'x.txt')).status).toBe(404);
    expect(
      (await admin(server, owner, '/knowledge')).body.map((base: { _id: string }) => base._id),
    ).not.toContain(theirs._id);
    const plain = await member(server, 'acme');
    const asMember = { token: plain.token, tenant: 'acme' };
    expect((await admin(server, asMember, '/knowledge')).status).toBe(403);
    expect((await admin(server, asMember, `/knowledge/${theirs._id}`)).status).toBe(403);
    expect((await uploadDocument(server, asMember, theirs._id, Buffer.from('x'), 'x.txt')).status).toBe(403);
    expect((await settled(server, acmeOwner, theirs._id)).documents).toEqual([
      { _id: document.body._id, name: 'plans.txt', status: 'ready' },
    ]);
  });
});
