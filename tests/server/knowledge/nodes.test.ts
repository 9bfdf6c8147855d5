import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble } from '../../support/openai-double';
import { type RunningPostgres, startPostgres } from '../../support/postgres';
import { type RunningServer, startServer } from '../../support/server';
import { admin, loginOwner } from '../admin/support';
import { ask, createBase, filler, makePages, settled, uploadDocument } from './support';

/** A node in a process of its own, reached over HTTP like any other (the helpers need its address only). */
const over = (node: RunningServer) => ({ url: node.url }) as TestServer;

/**
 * Two nodes on one PostgreSQL: one in this process, one a process of its own that can be killed
 * with -9 in the middle of indexing a document.
 */
describe('knowledge across nodes sharing a PostgreSQL', () => {
  let postgres: RunningPostgres;
  let model: OpenAiDouble;
  let shared: Record<string, string>;
  let a: TestServer;
  let b: RunningServer;
  let c: TestServer | undefined;

  beforeAll(async () => {
    [postgres, model] = await Promise.all([startPostgres(), startOpenAiDouble()]);
    shared = {
      DATABASE_URL: postgres.url,
      JWT_SECRET: 'the same secret on every node',
      RSA_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      OPENAI_BASE_URL: model.url,
    };
    // One migrates first; the other finds nothing left to do.
    a = await startApp(shared);
    b = await startServer({
      ...shared,
      STATIC_DIR: '',
      BUILTIN_TOKEN_DELAY_MS: '0',
      RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
      RATE_LIMIT_API_PER_MINUTE: '100000',
    });
  }, 90_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await c?.close();
    await model?.close();
    postgres?.stop();
  });

  it('indexes on one node what was uploaded on another, and the Librarian of either cites it', async () => {
    const owner = await loginOwner(a, 'app');
    const base = await createBase(a, owner, 'Across nodes');
    const pdf = await makePages([
      `Introduction. ${filler(200, 1)}`,
      `The fire exit is on the north staircase. ${filler(200, 2)}`,
    ]);
    const document = await uploadDocument(over(b), owner, base._id, pdf, 'safety.pdf');
    expect(document.status).toBe(201);
    expect((await settled(a, owner, base._id)).documents[0]).toMatchObject({ status: 'ready' });
    const librarian = (await admin(a, owner, '/bot')).body.find(
      (bot: { name: string }) => bot.name === 'Librarian',
    );
    await admin(a, owner, `/bot/${librarian._id}`, { method: 'PATCH', body: { knowledge: [base._id] } });
    const user = await signUp(a);
    const topic = await call(a, '/api/v1/topic', { token: user.token, body: { bot: librarian._id } });
    const reply = await ask(over(b), user, topic.body._id, { text: 'Where is the fire exit?' });
    expect(reply.text).toContain('> The fire exit is on the north staircase.');
    expect(reply.done.citations).toEqual([
      {
        n: 1,
        fileId: document.body._id,
        name: 'safety.pdf',
        page: 2,
        snippet: expect.stringContaining('fire exit'),
      },
    ]);
  });

  it('a node killed with -9 in the middle of a document leaves it to another: ready, indexed once', async () => {
    const owner = await loginOwner(a, 'app');
    const base = await createBase(a, owner, 'Killed mid-way');
    // Only node b runs now, so it is the one that takes the job.
    await a.close();
    model.delayEmbeddings(60_000);
    const embedded = model.embeddings.length;
    const pages = [`Alpha ${filler(100, 1)}`, `Beta ${filler(100, 2)}`, `Gamma ${filler(100, 3)}`];
    const document = await uploadDocument(over(b), owner, base._id, await makePages(pages), 'three.pdf');
    expect(document.status).toBe(201);
    // b has claimed it and is waiting for the vectors: the document is `indexing` when b dies.
    await expect.poll(() => model.embeddings.length, { timeout: 20_000 }).toBeGreaterThan(embedded);
    await b.crash();
    model.delayEmbeddings(0);

    c = await startApp(shared);
    const query = (sql: string) => (c as TestServer).app.db.query(sql, [document.body._id]);
    expect((await query('select status from knowledge_documents where file_id = $1')).rows).toEqual([
      { status: 'indexing' },
    ]);
    // Its lease runs out (10 s) and the new node claims it again.
    const ready = await settled(c, await loginOwner(c, 'app'), base._id, 40_000);
    expect(ready.documents).toEqual([{ _id: document.body._id, name: 'three.pdf', status: 'ready' }]);
    const { rows } = await query(
      'select count(*)::int as passages, count(distinct position)::int as positions from knowledge_passages where file_id = $1',
    );
    expect(rows).toEqual([{ passages: 3, positions: 3 }]);
    expect((await query('select attempts from knowledge_documents where file_id = $1')).rows).toEqual([
      { attempts: 2 },
    ]);
  }, 90_000);
});
