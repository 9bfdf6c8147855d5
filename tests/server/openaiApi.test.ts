import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../support/app';
import { type Nodes, startTwoNodes } from '../support/nodes';
import { type Actor, admin, loginOwner } from './admin/support';
import { billing as balanceOf, openAiClient as client, newKey, type User } from './tools/support';

/** What the official client threw: its status and OpenAI's error JSON. */
async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return { status: error.status, error: error.error as Json };
    throw error;
  }
  throw new Error('the call did not fail');
}

/** OpenAI's error body: `{ error: { message, type, code } }` with a sentence and the given code. */
const openAiError = (code: string) => ({
  message: expect.stringMatching(/\w+/),
  type: expect.any(String),
  code,
  param: expect.toBeOneOf([null, expect.any(String)]),
});

async function topicsOf(server: TestServer, user: User) {
  return (await call(server, '/api/v1/topic', { token: user.token, tenant: user.tenant })).body as Json[];
}

async function botId(server: TestServer, user: User, name: string): Promise<string> {
  const bots = (await call(server, '/api/v1/bot', { token: user.token, tenant: user.tenant })).body as Json[];
  return bots.find((bot) => bot.name === name)._id;
}

describe("Parley's OpenAI-compatible API with personal keys", () => {
  let server: TestServer;
  let owner: Actor;

  beforeAll(async () => {
    server = await startApp({ RATE_LIMIT_API_KEY_PER_MINUTE: '5' });
    owner = await loginOwner(server, 'app');
  }, 180_000);
  afterAll(() => server?.close());

  it('creates a key shown once: the list shows its name, dates and last four characters, never the key', async () => {
    const user = await signUp(server);
    const created = await newKey(server, user, 'My editor', '2999-12-31');
    expect(created.key).toMatch(/^pk-parley-[\w-]{43}$/);
    expect(created.key.length).toBeGreaterThanOrEqual(32);
    // The answer is also the record the list shows, so the panel lists it at once.
    expect(created).toMatchObject({
      name: 'My editor',
      expiresAt: '2999-12-31T23:59:59.999Z',
      lastUsedAt: null,
    });
    const list = await call(server, '/api/v1/user/me/key', { token: user.token, tenant: user.tenant });
    expect(list.body).toEqual([
      {
        _id: created._id,
        name: 'My editor',
        createdAt: expect.any(String),
        expiresAt: '2999-12-31T23:59:59.999Z',
        lastUsedAt: null,
        last4: created.key.slice(-4),
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.key.slice(10, 30));
    const { rows } = await server.app.db.query<{ key_hash: string }>(
      'select key_hash from api_keys where id = $1',
      [created._id],
    );
    expect(rows[0].key_hash).not.toContain(created.key);
    // Used: the list says when.
    await client(server, created.key).models.list();
    const used = await call(server, '/api/v1/user/me/key', { token: user.token, tenant: user.tenant });
    expect(used.body[0].lastUsedAt).toEqual(expect.any(String));
    // A name in clear is refused like any undecryptable field; an expiry in the past too.
    const clear = await call(server, '/api/v1/user/me/key', {
      token: user.token,
      tenant: user.tenant,
      body: { name: 'plain' },
    });
    expect(clear.status).toBe(400);
    const past = await call(server, '/api/v1/user/me/key', {
      token: user.token,
      tenant: user.tenant,
      body: { name: user.encrypt('old'), expiresAt: '2001-01-01' },
    });
    expect(past.body).toMatchObject({ code: 'INVALID_INPUT', field: 'expiresAt' });
  });

  it("lists as models the bots the key's user may use, owned by the organization", async () => {
    const user = await signUp(server);
    const { key } = await newKey(server, user);
    const group = await admin(server, owner, '/group', {
      body: { name: owner.encrypt(`Few ${Date.now()}`) },
    });
    expect(group.status).toBe(201);
    const limited = await admin(server, owner, '/bot', {
      body: {
        name: owner.encrypt(`Limited ${Date.now()}`),
        description: 'Only for a group.',
        platform: 'builtin',
        engine: 'eliza',
        price: 0,
        categories: [],
        groups: [group.body._id],
        active: true,
      },
    });
    expect(limited.status).toBe(201);
    const models = await client(server, key).models.list();
    const ids = models.data.map((model) => model.id);
    const usable = ((await call(server, '/api/v1/bot', { token: user.token })).body as Json[])
      .filter((bot) => bot.active)
      .map((bot) => bot._id);
    expect(ids).toEqual(usable);
    expect(ids).toContain(await botId(server, user, 'ELIZA'));
    expect(ids).not.toContain(limited.body._id);
    // Each carries the bot's name, as the catalogue shows it.
    const names = new Map(
      ((await call(server, '/api/v1/bot', { token: user.token })).body as Json[]).map((bot) => [
        bot._id,
        bot.name,
      ]),
    );
    for (const model of models.data) {
      expect(model).toEqual({
        id: model.id,
        object: 'model',
        created: expect.any(Number),
        owned_by: 'app',
        name: names.get(model.id),
      });
    }
    // Not theirs to use: refused with OpenAI's error, as is a model that does not exist.
    const refused = await failure(
      client(server, key).chat.completions.create({
        model: limited.body._id,
        messages: [{ role: 'user', content: 'Hello' }],
      }),
    );
    expect(refused).toEqual({ status: 403, error: openAiError('model_not_allowed') });
    const unknown = await failure(
      client(server, key).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    );
    expect(unknown).toEqual({ status: 404, error: openAiError('model_not_found') });
  });

  it("takes a bot's name as the model, in any case; a name two bots share but for case is refused (400), ids always work", async () => {
    const user = await signUp(server);
    const { key } = await newKey(server, user);
    const ask = (model: string) =>
      client(server, key).chat.completions.create({ model, messages: [{ role: 'user', content: '6*7' }] });
    const calculator = await botId(server, user, 'Calculator');
    for (const model of ['Calculator', 'calculator']) {
      const completion = await ask(model);
      expect(completion.model).toBe(calculator);
      expect(completion.choices[0].message.content).toContain('42');
    }
    // A name of a bot the member may not use, or that is not listed, names nothing.
    expect(await failure(ask('Oracle'))).toEqual({ status: 404, error: openAiError('model_not_found') });

    const twins: string[] = [];
    const stamp = Date.now();
    for (const name of [`Twin ${stamp}`, `TWIN ${stamp}`]) {
      const made = await admin(server, owner, '/bot', {
        body: {
          name: owner.encrypt(name),
          description: 'A twin.',
          platform: 'builtin',
          engine: 'calculator',
          price: 0,
          categories: [],
          active: true,
        },
      });
      expect(made.status).toBe(201);
      twins.push(made.body._id);
    }
    const ambiguous = await failure(ask(`twin ${stamp}`));
    expect(ambiguous).toEqual({ status: 400, error: { ...openAiError('model_ambiguous'), param: 'model' } });
    expect(ambiguous.error.message).toContain(twins[0]);
    expect(ambiguous.error.message).toContain(twins[1]);
    expect((await ask(twins[1])).model).toBe(twins[1]);
  });

  it('answers a completion with usage, charged once like a chat reply, and stores nothing without store: true', async () => {
    const user = await signUp(server);
    const { key, _id: keyId } = await newKey(server, user);
    const eliza = await botId(server, user, 'ELIZA');
    const before = await balanceOf(server, user);
    const completion = await client(server, key).chat.completions.create({
      model: eliza,
      messages: [
        { role: 'system', content: 'You are ignored: the bot has its own prompt.' },
        { role: 'user', content: 'I feel sad about my mother' },
      ],
      temperature: 0.2,
    });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: eliza,
      choices: [
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: expect.any(String) } },
      ],
    });
    expect(completion.choices[0].message.content?.length).toBeGreaterThan(3);
    const usage = completion.usage;
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    const after = await balanceOf(server, user);
    expect(after.balance).toBeCloseTo(before.balance - 0.01, 6);
    expect(after.reserved).toBe(0);
    expect(after.transactions.filter((transaction) => transaction.amount < 0)).toHaveLength(1);
    expect(await topicsOf(server, user)).toEqual([]);
    // Counted per key in the admin usage report.
    const report = await admin(server, owner, '/usage');
    expect(report.body.perKey).toContainEqual(
      expect.objectContaining({ _id: keyId, messages: 1, replies: 1, spend: 0.01, userId: user.id }),
    );
  });

  it('streams chat.completion.chunk events ending with [DONE], with usage when asked', async () => {
    const user = await signUp(server);
    const { key } = await newKey(server, user);
    const eliza = await botId(server, user, 'ELIZA');
    const stream = await client(server, key).chat.completions.create({
      model: eliza,
      messages: [{ role: 'user', content: 'I am worried about my work' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text.length).toBeGreaterThan(3);
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toBeTruthy();
    expect(chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
    // The raw stream ends with OpenAI's terminator.
    const raw = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: eliza, stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    expect((await raw.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
    const billing = await balanceOf(server, user);
    expect(billing.transactions.filter((transaction) => transaction.amount < 0)).toHaveLength(2);
    expect(billing.reserved).toBe(0);
  });

  it('store: true saves the conversation as a topic the user sees', async () => {
    const user = await signUp(server);
    const { key } = await newKey(server, user);
    const eliza = await botId(server, user, 'ELIZA');
    const completion = await client(server, key).chat.completions.create({
      model: eliza,
      store: true,
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'How do you do. Please state your problem.' },
        { role: 'user', content: 'I dream of cats' },
      ],
    });
    const topics = await topicsOf(server, user);
    expect(topics).toHaveLength(1);
    const topic = await call(server, `/api/v1/topic/${topics[0]._id}`, {
      token: user.token,
      tenant: user.tenant,
    });
    const texts = (topic.body.messages as Json[]).map((message) => message.text);
    expect(texts).toEqual([
      'Hello',
      'How do you do. Please state your problem.',
      'I dream of cats',
      completion.choices[0].message.content,
    ]);
  });

  it('answers every error in OpenAI error JSON: bad key, bad request, unknown URL', async () => {
    const user = await signUp(server);
    const { key } = await newKey(server, user);
    expect(await failure(client(server, 'pk-parley-not-a-key').models.list())).toEqual({
      status: 401,
      error: openAiError('invalid_api_key'),
    });
    const noAuth = await call(server, '/v1/models');
    expect(noAuth.status).toBe(401);
    expect(noAuth.body).toEqual({ error: openAiError('invalid_api_key') });
    const eliza = await botId(server, user, 'ELIZA');
    const bad = await call(server, '/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}` },
      body: { model: eliza },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: openAiError('invalid_request_error') });
    const lastNotUser = await call(server, '/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}` },
      body: { model: eliza, messages: [{ role: 'assistant', content: 'Hi' }] },
    });
    expect(lastNotUser.status).toBe(400);
    expect(lastNotUser.body.error.code).toBe('invalid_request_error');
    const notJson = await call(server, '/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ error: openAiError('invalid_request_error') });
    const nowhere = await call(server, '/v1/embeddings', { headers: { authorization: `Bearer ${key}` } });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body).toEqual({ error: openAiError('unknown_url') });
    // The rest of Parley keeps its own error shape.
    const elsewhere = await call(server, '/api/v1/nothing-here', { token: user.token });
    expect(elsewhere.status).toBe(404);
    expect(typeof elsewhere.body.error).toBe('string');
  });

  it('a revoked key stops at once; another member cannot revoke it (404)', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    const { key, _id } = await newKey(server, user);
    await client(server, key).models.list();
    const theirs = await call(server, `/api/v1/user/me/key/${_id}`, {
      method: 'DELETE',
      token: other.token,
      tenant: other.tenant,
    });
    expect(theirs.status).toBe(404);
    await client(server, key).models.list();
    const revoked = await call(server, `/api/v1/user/me/key/${_id}`, {
      method: 'DELETE',
      token: user.token,
      tenant: user.tenant,
    });
    expect(revoked.status).toBe(200);
    expect(await failure(client(server, key).models.list())).toEqual({
      status: 401,
      error: openAiError('invalid_api_key'),
    });
    expect((await call(server, '/api/v1/user/me/key', { token: user.token })).body).toEqual([]);
  });

  it("a suspended member's key is refused (401), and works again when they are reinstated", async () => {
    const user = await signUp(server);
    const { key } = await newKey(server, user);
    await client(server, key).models.list();
    await admin(server, owner, `/member/${user.id}`, { method: 'PATCH', body: { suspended: true } });
    expect(await failure(client(server, key).models.list())).toEqual({
      status: 401,
      error: openAiError('invalid_api_key'),
    });
    await admin(server, owner, `/member/${user.id}`, { method: 'PATCH', body: { suspended: false } });
    expect((await client(server, key).models.list()).object).toBe('list');
  });

  it('an organization with apiAccess off refuses every key (403); on again, they work', async () => {
    const user = await signUp(server);
    const { key } = await newKey(server, user);
    const spare = await newKey(server, user, 'spare');
    const settings = await admin(server, owner, '/settings');
    expect(settings.body.apiAccess).toBe(true);
    const off = await admin(server, owner, '/settings', { method: 'PATCH', body: { apiAccess: false } });
    expect(off.body.apiAccess).toBe(false);
    try {
      expect(await failure(client(server, key).models.list())).toEqual({
        status: 403,
        error: openAiError('api_access_disabled'),
      });
      // The Profile panel learns it from its own calls: listing and creating say so; revoking still works.
      const asMember = { token: user.token, tenant: user.tenant };
      const refused = {
        error: 'API access is turned off for this organization. Ask an administrator of the organization.',
        code: 'API_ACCESS_DISABLED',
      };
      const list = await call(server, '/api/v1/user/me/key', asMember);
      expect([list.status, list.body]).toEqual([403, refused]);
      const create = await call(server, '/api/v1/user/me/key', {
        ...asMember,
        body: { name: user.encrypt('another') },
      });
      expect([create.status, create.body]).toEqual([403, refused]);
      const revoked = await call(server, `/api/v1/user/me/key/${spare._id}`, {
        ...asMember,
        method: 'DELETE',
      });
      expect(revoked.status).toBe(200);
    } finally {
      await admin(server, owner, '/settings', { method: 'PATCH', body: { apiAccess: true } });
    }
    expect((await client(server, key).models.list()).object).toBe('list');
  });

  it('insufficient_quota (402) at zero balance, nothing charged or stored', async () => {
    await admin(server, owner, '/settings', { method: 'PATCH', body: { startingBalance: 0 } });
    let user: User;
    try {
      user = await signUp(server);
    } finally {
      await admin(server, owner, '/settings', { method: 'PATCH', body: { startingBalance: null } });
    }
    const { key } = await newKey(server, user);
    const eliza = await botId(server, user, 'ELIZA');
    const refused = await failure(
      client(server, key).chat.completions.create({
        model: eliza,
        store: true,
        messages: [{ role: 'user', content: 'Hello' }],
      }),
    );
    expect(refused).toEqual({ status: 402, error: openAiError('insufficient_quota') });
    expect(refused.error.type).toBe('insufficient_quota');
    expect(await balanceOf(server, user)).toMatchObject({ balance: 0, reserved: 0 });
    expect(await topicsOf(server, user)).toEqual([]);
  });

  it('limits each key to RATE_LIMIT_API_KEY_PER_MINUTE requests (429), another key of the same user apart', async () => {
    const user = await signUp(server);
    const first = await newKey(server, user, 'first');
    const second = await newKey(server, user, 'second');
    for (let index = 0; index < 5; index += 1) await client(server, first.key).models.list();
    const limited = await failure(client(server, first.key).models.list());
    expect(limited).toEqual({ status: 429, error: openAiError('rate_limit_exceeded') });
    expect((await client(server, second.key).models.list()).object).toBe('list');
  });
});

describe('API keys on two nodes of one PostgreSQL', () => {
  let nodes: Nodes;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    nodes = await startTwoNodes();
    ({ a, b } = nodes);
  }, 90_000);
  afterAll(async () => {
    await nodes?.stop();
  });

  it('a key revoked on one node is refused by the other within a second', async () => {
    const user = await signUp(a);
    const { key, _id } = await newKey(a, user);
    expect((await client(b, key).models.list()).object).toBe('list');
    // On PostgreSQL too, a completion is reserved, then settled with its usage in one statement.
    const before = await balanceOf(a, user);
    const answered = await client(b, key).chat.completions.create({
      model: await botId(b, user, 'ELIZA'),
      messages: [{ role: 'user', content: 'I feel sad about my mother' }],
    });
    expect(answered.usage?.completion_tokens).toBeGreaterThan(0);
    const after = await balanceOf(a, user);
    expect(after.balance).toBeCloseTo(before.balance - 0.01, 6);
    expect(after.reserved).toBe(0);
    const revoked = await call(a, `/api/v1/user/me/key/${_id}`, {
      method: 'DELETE',
      token: user.token,
      tenant: user.tenant,
    });
    expect(revoked.status).toBe(200);
    const started = Date.now();
    expect(await failure(client(b, key).models.list())).toEqual({
      status: 401,
      error: openAiError('invalid_api_key'),
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
