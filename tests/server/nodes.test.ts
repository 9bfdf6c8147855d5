import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, encrypter, type Json, signUp, startApp, type TestServer } from '../support/app';
import { type OpenAiDouble, startOpenAiDouble, toolSteps } from '../support/openai-double';
import { type RunningPostgres, startPostgres } from '../support/postgres';
import { type SearchDouble, startSearxngDouble } from '../support/searchEngines';
import { readEvents } from '../support/sse';
import { silenceWav } from '../support/wav';
import { admin, loginOwner } from './admin/support';
import { newTopic, say } from './tools/support';

/** Nodes in this process on one PostgreSQL, sharing their secrets through the environment. */
describe('several nodes on one PostgreSQL', () => {
  let postgres: RunningPostgres;
  let model: OpenAiDouble;
  let searxng: SearchDouble;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    postgres = await startPostgres();
    [model, searxng] = await Promise.all([startOpenAiDouble(), startSearxngDouble()]);
    const shared = {
      DATABASE_URL: postgres.url,
      JWT_SECRET: 'the same secret on every node',
      RSA_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      RATE_LIMIT_LOGIN_FAILURES: '5',
      // The organization's provider and search engine are doubles on loopback.
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
    };
    // Started together on an empty database: one migrates, the other waits for it.
    [a, b] = await Promise.all([startApp({ ...shared, OPENAI_BASE_URL: model.url }), startApp(shared)]);
  }, 90_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await model?.close();
    await searxng?.close();
    postgres?.stop();
  });

  it('migrates once when two nodes start together, and both are ready', async () => {
    const { rows } = await a.app.db.query<{ name: string; count: string }>(
      'select name, count(*) over () as count from schema_migrations',
    );
    expect(rows.length).toBeGreaterThan(4);
    for (const node of [a, b]) expect((await call(node, '/ready')).body).toEqual({ status: 'ready' });
  });

  it('shares the key pair and the JWT secret: sign up on one node, log in on the other', async () => {
    expect((await call(a, '/auth/public-key')).body).toEqual((await call(b, '/auth/public-key')).body);
    const user = await signUp(a);
    const encrypt = await encrypter(b);
    const login = await call(b, '/auth/login', {
      body: { email: encrypt(user.email), password: encrypt(user.password) },
    });
    expect(login.status).toBe(200);
    expect((await call(a, '/api/v1/user/me', { token: login.body.token })).status).toBe(200);
  });

  it("decides per request whether a model bot runs: a node without a model server changes nobody's data", async () => {
    const user = await signUp(a);
    const active = async (node: TestServer) =>
      (await call(node, '/api/v1/bot', { token: user.token })).body.find(
        (bot: { name: string }) => bot.name === 'Assistant',
      ).active;
    expect(await active(a)).toBe(true);
    expect(await active(b)).toBe(false);
    const { rows } = await a.app.db.query<{ active: boolean }>(
      "select active from bots where tenant = 'app' and name = 'Assistant'",
    );
    expect(rows[0].active).toBe(true);
  });

  it('ends a revoked session on every node at once', async () => {
    const user = await signUp(a);
    // Node b has just checked (and remembered) the token…
    expect((await call(b, '/api/v1/user/me', { token: user.token })).status).toBe(200);
    await call(a, '/auth/logout-everywhere', { method: 'POST', token: user.token, body: {} });
    // …and refuses it as soon as the notification arrives, well within its 5 s memory.
    await expect
      .poll(async () => (await call(b, '/api/v1/user/me', { token: user.token })).status, {
        timeout: 1000,
        interval: 50,
      })
      .toBe(401);
  });

  it('counts login failures across nodes', async () => {
    const user = await signUp(a);
    const attempt = (node: TestServer) =>
      call(node, '/auth/login', {
        body: { email: user.encrypt(user.email), password: user.encrypt('wrong!') },
      });
    const statuses = [];
    for (const node of [a, b, a, b, a, b]) statuses.push((await attempt(node)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('serves voice, web search and images set up on one node from the other at once', async () => {
    const owner = await loginOwner(a, 'app');
    const provider = (
      await admin(a, owner, '/provider', {
        body: { name: owner.encrypt('Nodes double'), baseUrl: model.url, apiKey: 'sk-nodes-0001' },
      })
    ).body._id;
    const settings = await admin(a, owner, '/settings', {
      method: 'PATCH',
      body: {
        speech: {
          transcriptionModel: 'whisper-1',
          speechModel: null,
          voices: [],
          provider,
          transcriptionPrice: 0,
          speechPrice: 0,
        },
        search: { engine: 'searxng', url: searxng.url },
        images: { provider, model: 'gpt-image-1', price: 0 },
      },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    // The other node answers members with the new settings at once (it cached the organization before).
    expect((await call(b, '/api/v1/organization/app')).body).toMatchObject({
      voice: { transcription: true },
      webSearch: true,
      images: true,
    });
    const user = await signUp(a);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(silenceWav(1))]), 'note.wav');
    const heard = await fetch(`${b.url}/api/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, organization: 'app' },
      body: form,
    });
    expect(heard.status).toBe(200);
    expect(typeof ((await heard.json()) as { text: unknown }).text).toBe('string');
    // A bot on the provider, made on one node, searching and drawing on the other.
    const bot = await admin(a, owner, '/bot', {
      body: {
        name: owner.encrypt('Nodes researcher'),
        description: 'Searches and draws',
        platform: 'openai',
        provider,
        model: 'double-1',
        price: 0,
        categories: [],
        active: true,
        tools: ['web_search', 'generate_image'],
      },
    });
    expect(bot.status, JSON.stringify(bot.body)).toBe(201);
    model.script(
      toolSteps([
        { call: { name: 'web_search', arguments: { query: 'lighthouses' } } },
        { call: { name: 'generate_image', arguments: { prompt: 'A lighthouse' } } },
        { answer: () => 'A lighthouse [1].' },
      ]),
    );
    const topic = await newTopic(b, user, bot.body._id);
    const done = (await say(b, user, topic, 'Show me a lighthouse')).at(-1) as Json;
    expect(done.event).toBe('done');
    const { citations, files } = done.data;
    expect(citations[0].url).toBe('https://example.org/lighthouses');
    expect(files).toEqual([expect.objectContaining({ type: 'image/png' })]);
    // The image was stored by one node and is read from the other.
    const image = await fetch(`${a.url}/api/v1/file/${files[0]._id}/content`, {
      headers: { authorization: `Bearer ${user.token}`, organization: 'app' },
    });
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('drains on shutdown: refuses new replies with 503 and answers /ready with 503', async () => {
    const user = await signUp(a);
    const bots = await call(b, '/api/v1/bot', { token: user.token });
    const eliza = bots.body.find((bot: { name: string }) => bot.name === 'ELIZA')._id;
    const topic = (await call(b, '/api/v1/topic', { token: user.token, body: { bot: eliza } })).body._id;
    await b.app.liveReplies.drain(0);
    expect((await call(b, '/ready')).status).toBe(503);
    const refused = await call(b, `/api/v1/topic/${topic}/message`, {
      token: user.token,
      body: { text: 'Hi' },
    });
    expect(refused).toMatchObject({ status: 503, body: { code: 'SHUTTING_DOWN' } });
    // The other node takes the message.
    const response = await fetch(`${a.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'Hi' }),
    });
    expect((await readEvents(response)).at(-1)?.event).toBe('done');
  });
});
