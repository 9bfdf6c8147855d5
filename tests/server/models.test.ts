import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../support/openai-double';
import { type Actor, admin, loginOwner, stream } from './admin/support';
import {
  billing,
  newKey,
  newTopic,
  openAiClient,
  readTopic,
  replyText,
  say,
  type User,
} from './tools/support';

const providerKey = 'sk-lab-provider-key-1234';

/** A model of the owner's catalogue, added through the admin API (its name RSA-encrypted). */
async function addModel(server: TestServer, owner: Actor, fields: Json) {
  const answer = await admin(server, owner, '/model', {
    body: { ...fields, name: owner.encrypt(fields.name) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Json;
}

/** A model bot of the owner's organization offering `models` (the first its default). */
async function addBot(server: TestServer, owner: Actor, name: string, fields: Json) {
  const answer = await admin(server, owner, '/bot', {
    body: {
      name: owner.encrypt(name),
      description: 'A bot for the catalogue tests.',
      platform: 'openai',
      price: 5,
      categories: [],
      active: true,
      ...fields,
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Json;
}

const patchTopic = (server: TestServer, user: User, topic: string, body: Json) =>
  call(server, `/api/v1/topic/${topic}`, { method: 'PATCH', token: user.token, tenant: user.tenant, body });

/** The member's balance in ten-thousandths, to compare amounts exactly. */
const tenThousandths = (amount: number) => Math.round(amount * 10_000);

describe('the model catalogue: admins offer models, conversations pick one, replies are priced by it', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let owner: Actor;
  let elsewhere: Actor;
  let providerId: string;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url, ALLOW_PRIVATE_PROVIDER_URLS: 'true' });
    owner = await loginOwner(server, 'acme');
    elsewhere = await loginOwner(server, 'app');
    const provider = await admin(server, owner, '/provider', {
      body: { name: owner.encrypt('Lab'), baseUrl: model.url, apiKey: providerKey },
    });
    expect(provider.status).toBe(201);
    providerId = provider.body._id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('admins list, add, change and remove models, audited, checked and kept to their organization', async () => {
    const fast = await addModel(server, owner, {
      name: '  Fast   one ',
      provider: providerId,
      model: 'double-fast',
      price: 0.02,
      contextTokens: 4096,
    });
    expect(fast).toEqual({
      _id: expect.any(String),
      name: 'Fast one',
      provider: providerId,
      model: 'double-fast',
      price: 0.02,
      vision: false,
      contextTokens: 4096,
      memberBots: false,
    });
    const metered = await addModel(server, owner, {
      name: 'Metered',
      provider: null,
      model: 'double-metered',
      price: 0.01,
      inputPrice: 1.5,
      outputPrice: 6,
      vision: true,
      contextTokens: 2000,
      memberBots: true,
    });
    expect(metered).toMatchObject({ provider: null, inputPrice: 1.5, outputPrice: 6, memberBots: true });

    // Bad input: clear 4xx naming the field, nothing written.
    const bad = async (body: Json, status: number, field?: string) => {
      const answer = await admin(server, owner, '/model', { body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.error).toEqual(expect.any(String));
      if (field) expect(answer.body.field).toBe(field);
    };
    const valid = { name: owner.encrypt('Another'), model: 'x', price: 1 };
    await bad({ ...valid, name: 'Another' }, 400); // a name in clear cannot be read
    await bad({ ...valid, name: owner.encrypt('fast ONE') }, 409, 'name');
    await bad({ ...valid, model: '   ' }, 400, 'model');
    await bad({ ...valid, price: -1 }, 400);
    await bad({ ...valid, contextTokens: 10 }, 400);
    const theirs = await admin(server, elsewhere, '/provider', {
      body: { name: elsewhere.encrypt('Theirs'), baseUrl: model.url },
    });
    await bad({ ...valid, provider: theirs.body._id }, 404, 'provider');
    expect((await admin(server, owner, '/model')).body.map((row: Json) => row.name)).toEqual([
      'Fast one',
      'Metered',
    ]);

    const changed = await admin(server, owner, `/model/${fast._id}`, {
      method: 'PATCH',
      body: { name: owner.encrypt('Fast'), inputPrice: 2 },
    });
    expect(changed.body).toMatchObject({ name: 'Fast', inputPrice: 2, price: 0.02, model: 'double-fast' });
    const cleared = await admin(server, owner, `/model/${fast._id}`, {
      method: 'PATCH',
      body: { inputPrice: null },
    });
    expect(cleared.body).not.toHaveProperty('inputPrice');

    // Another organization's model does not exist for this one, and members have no say.
    expect(
      (await admin(server, elsewhere, `/model/${fast._id}`, { method: 'PATCH', body: { price: 0 } })).status,
    ).toBe(404);
    expect((await admin(server, elsewhere, `/model/${fast._id}`, { method: 'DELETE' })).status).toBe(404);
    expect(JSON.stringify((await admin(server, elsewhere, '/model')).body)).not.toContain(fast._id);
    const someone = await signUp(server, 'acme');
    expect((await admin(server, someone, '/model')).status).toBe(403);

    // Removing: refused while a bot offers it (or a model runs on a provider), then gone.
    const bot = await addBot(server, owner, 'Catalogue holder', { models: [metered._id] });
    const refused = await admin(server, owner, `/model/${metered._id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'MODEL_IN_USE',
      error: expect.stringContaining('Catalogue holder'),
    });
    const providerGone = await admin(server, owner, `/provider/${providerId}`, { method: 'DELETE' });
    expect(providerGone.status).toBe(409);
    expect(providerGone.body.error).toContain('Fast');
    await admin(server, owner, `/bot/${bot._id}`, { method: 'PATCH', body: { models: [] } });
    expect((await admin(server, owner, `/model/${metered._id}`, { method: 'DELETE' })).body).toEqual({
      success: true,
    });
    expect((await admin(server, owner, `/model/${metered._id}`, { method: 'DELETE' })).status).toBe(404);

    const audit = (await admin(server, owner, '/audit')).body.items as Json[];
    const actions = audit.map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['model.create', 'model.update', 'model.delete']));
    const created = audit.find((entry) => entry.action === 'model.create' && entry.target === fast._id);
    expect(created.after).toMatchObject({ name: 'Fast one', model: 'double-fast', price: 0.02 });
    expect(created.names[fast._id]).toBe('Fast');
    await admin(server, owner, `/model/${fast._id}`, { method: 'DELETE' });
  });

  it('bots offer models: the bot list names them, members see the models they may use', async () => {
    const first = await addModel(server, owner, {
      name: 'First',
      provider: providerId,
      model: 'm1',
      price: 0.5,
    });
    const second = await addModel(server, owner, { name: 'Second', provider: null, model: 'm2', price: 1 });
    const hidden = await addModel(server, owner, { name: 'Hidden', provider: null, model: 'm3', price: 1 });
    const open = await addModel(server, owner, {
      name: 'Open',
      provider: null,
      model: 'm4',
      price: 1,
      memberBots: true,
    });
    const bot = await addBot(server, owner, 'Two models', {
      models: [first._id, second._id],
      userParameters: true,
    });
    expect(bot).toMatchObject({ models: [first._id, second._id], userParameters: true });
    const group = await admin(server, owner, '/group', { body: { name: owner.encrypt('Insiders') } });
    await addBot(server, owner, 'Insiders only', { models: [hidden._id], groups: [group.body._id] });

    // Built-in bots run no catalogue model; another organization's model is not found.
    const builtin = await admin(server, owner, '/bot', {
      body: {
        name: owner.encrypt('Builtin with models'),
        description: '',
        platform: 'builtin',
        engine: 'eliza',
        price: 0,
        categories: [],
        active: true,
        models: [first._id],
      },
    });
    expect(builtin.status).toBe(400);
    expect(builtin.body.field).toBe('models');
    const foreign = await addModel(server, elsewhere, {
      name: 'Foreign',
      provider: null,
      model: 'f',
      price: 0,
    });
    const stolen = await admin(server, owner, `/bot/${bot._id}`, {
      method: 'PATCH',
      body: { models: [foreign._id] },
    });
    expect(stolen.status).toBe(404);
    expect(stolen.body.field).toBe('models');

    const user = await signUp(server, 'acme');
    const listed = (await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' })).body as Json[];
    const shown = listed.find((row) => row._id === bot._id);
    // Priced by its default model until a conversation picks another.
    expect(shown).toMatchObject({
      price: 0.5,
      models: [
        { _id: first._id, name: 'First' },
        { _id: second._id, name: 'Second' },
      ],
    });
    const mine = async () =>
      ((await call(server, '/api/v1/model', { token: user.token, tenant: 'acme' })).body as Json[]).map(
        (row) => row.name,
      );
    expect(await mine()).toEqual(expect.arrayContaining(['First', 'Second']));
    // A group's bot's model is for its members only; models open to members' bots while they may make some.
    expect(await mine()).not.toContain('Hidden');
    expect(await mine()).not.toContain('Open');
    await server.app.db.query(`update organizations set member_bots = true where subdomain = 'acme'`);
    expect(await mine()).toContain('Open');
    await server.app.db.query(`update organizations set member_bots = false where subdomain = 'acme'`);
    const member = (await call(server, '/api/v1/model', { token: user.token, tenant: 'acme' }))
      .body as Json[];
    expect(member.find((row) => row._id === first._id)).toEqual({
      _id: first._id,
      name: 'First',
      price: 0.5,
      vision: false,
      contextTokens: 8192,
      memberBots: false,
    });
    const outsider = await signUp(server, 'app');
    const theirs = await call(server, '/api/v1/model', { token: outsider.token, tenant: 'app' });
    expect(JSON.stringify(theirs.body)).not.toContain(first._id);
    expect(open._id).toEqual(expect.any(String));
  });

  it('the model picked for a conversation is the one called, with its parameters, and its price is charged', async () => {
    const fast = await addModel(server, owner, {
      name: 'Picked fast',
      provider: providerId,
      model: 'double-fast',
      price: 0.02,
    });
    const deep = await addModel(server, owner, {
      name: 'Picked deep',
      provider: null,
      model: 'double-deep',
      price: 0.01,
      inputPrice: 1,
      outputPrice: 2,
      contextTokens: 2000,
    });
    const bot = await addBot(server, owner, 'Picker', { models: [fast._id, deep._id], userParameters: true });
    const plain = await addBot(server, owner, 'No parameters', { models: [fast._id] });
    const user = await signUp(server, 'acme');
    const topic = await newTopic(server, user, bot._id);
    expect(await readTopic(server, user, topic)).toMatchObject({ model: fast._id, parameters: {} });

    // The choice is one of the bot's models; parameters where the bot allows them, within the model.
    const chose = await patchTopic(server, user, topic, { model: deep._id });
    expect(chose.status).toBe(200);
    expect(chose.body.model).toBe(deep._id);
    const foreign = await addModel(server, elsewhere, {
      name: 'Far',
      provider: null,
      model: 'far',
      price: 0,
    });
    for (const other of [foreign._id, 'no-such-model']) {
      const refused = await patchTopic(server, user, topic, { model: other });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_INPUT', field: 'model' });
    }
    const tooLong = await patchTopic(server, user, topic, { parameters: { maxTokens: 2001 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('2000');
    expect((await patchTopic(server, user, topic, { parameters: { temperature: 3 } })).status).toBe(400);
    const tuned = await patchTopic(server, user, topic, {
      model: fast._id,
      parameters: { temperature: 0.7, maxTokens: 100 },
    });
    expect(tuned.body).toMatchObject({ model: fast._id, parameters: { temperature: 0.7, maxTokens: 100 } });
    const other = await newTopic(server, user, plain._id);
    const notAllowed = await patchTopic(server, user, other, { parameters: { temperature: 1 } });
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.body.code).toBe('PARAMETERS_NOT_ALLOWED');

    // Its reply: the chosen model at its provider, with the conversation's parameters, at its price.
    const before = await billing(server, user);
    const events = await say(server, user, topic, 'Which model are you?');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.02 } });
    const sent = model.requests.at(-1);
    expect(sent).toMatchObject({ model: 'double-fast', temperature: 0.7, max_tokens: 100 });
    expect(model.authorizations.at(-1)).toBe(`Bearer ${providerKey}`);
    const after = await billing(server, user);
    expect(tenThousandths(before.balance - after.balance)).toBe(200);
    const answered = await readTopic(server, user, topic);
    const reply = answered.messages.at(-1);
    expect(reply).toMatchObject({ role: 'bot', model: fast._id, cost: 0.02 });

    // Regenerated with the other model: a new branch written by it, priced by its tokens; the
    // conversation keeps its choice.
    model.script(() => ({
      chunks: ['Deep', ' thought'],
      usage: { prompt_tokens: 1500, completion_tokens: 50 },
    }));
    const again = await stream(
      server,
      `/api/v1/topic/${topic}/message/${reply._id}/regenerate`,
      user.token,
      'acme',
      { model: deep._id },
    );
    expect(again.events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.0116 } });
    expect(model.requests.at(-1)).toMatchObject({ model: 'double-deep', temperature: 0.7, max_tokens: 100 });
    expect(model.authorizations.at(-1)).toBeUndefined();
    const branched = await readTopic(server, user, topic);
    const siblings = branched.messages.filter((message: Json) => message.parent === reply.parent);
    expect(siblings.map((message: Json) => message.model)).toEqual([fast._id, deep._id]);
    expect(branched.model).toBe(fast._id);
    const { rows } = await server.app.db.query<{ prompt_tokens: number; completion_tokens: number }>(
      'select prompt_tokens, completion_tokens from messages where id = $1',
      [siblings[1]._id],
    );
    expect(rows[0]).toEqual({ prompt_tokens: 1500, completion_tokens: 50 });
    expect(tenThousandths(after.balance - (await billing(server, user)).balance)).toBe(116);

    // A provider reporting more than the reply may use: charged what it held, never more
    // (0.01 + 2000 × 0.000001 + 100 × 0.000002 = 0.0122).
    model.script(() => ({ chunks: ['Long'], usage: { prompt_tokens: 90_000, completion_tokens: 90_000 } }));
    const capped = await stream(
      server,
      `/api/v1/topic/${topic}/message/${reply._id}/regenerate`,
      user.token,
      'acme',
      { model: deep._id },
    );
    expect(capped.events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.0122 } });

    // A provider reporting no usage: charged by an estimate of what was sent and written, kept with it.
    model.script(() => ({ chunks: ['x'.repeat(400)], usage: null }));
    const estimated = await stream(
      server,
      `/api/v1/topic/${topic}/message/${reply._id}/regenerate`,
      user.token,
      'acme',
      { model: deep._id },
    );
    const { rows: counted } = await server.app.db.query<{ prompt_tokens: number; completion_tokens: number }>(
      'select prompt_tokens, completion_tokens from messages where id = $1',
      [estimated.events.at(-1)?.data.botMessageId],
    );
    expect(counted[0].completion_tokens).toBe(100);
    expect(counted[0].prompt_tokens).toBeGreaterThan(0);
    const estimate = Math.ceil(100 + counted[0].prompt_tokens / 100 + (2 * 100) / 100);
    expect(estimated.events.at(-1)).toMatchObject({ event: 'done', data: { cost: estimate / 10_000 } });

    // A model the bot does not offer: refused before anything is reserved or written.
    const refused = await call(server, `/api/v1/topic/${topic}/message/${reply._id}/regenerate`, {
      token: user.token,
      tenant: 'acme',
      body: { model: foreign._id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('model');
    expect((await readTopic(server, user, topic)).messages).toHaveLength(branched.messages.length + 2);
    expect((await billing(server, user)).reserved).toBe(0);
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });

  it('token-priced replies hold their maximum and settle their usage: 100 at once, exact balances', async () => {
    // 0.0001 a token read, 0.0002 a token written: at most 0.01 + 1000 × 0.0001 + 1000 × 0.0002 = 0.31.
    const metered = await addModel(server, owner, {
      name: 'Metered exactly',
      provider: null,
      model: 'double-metered',
      price: 0.01,
      inputPrice: 100,
      outputPrice: 200,
      contextTokens: 1000,
    });
    const bot = await addBot(server, owner, 'Metered bot', { models: [metered._id] });
    const maximum = 3100; // ten-thousandths
    const cost = (n: number) => 100 + (100 + n) + 2 * (10 + n);

    // Less than the maximum: refused, though the reply would cost less.
    const poor = await signUp(server, 'acme');
    await admin(server, owner, `/member/${poor.id}/credit`, { body: { amount: -9.7, note: 'Down to 0.30' } });
    const poorTopic = await newTopic(server, poor, bot._id);
    const refused = await call(server, `/api/v1/topic/${poorTopic}/message`, {
      token: poor.token,
      tenant: 'acme',
      body: { text: 'n=1' },
    });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('INSUFFICIENT_BALANCE');

    // A failed reply costs nothing.
    const user = await signUp(server, 'acme');
    await admin(server, owner, `/member/${user.id}/credit`, { body: { amount: 30, note: 'For the race' } });
    model.script(() => ({ chunks: ['down'], status: 500 }));
    const failed = await say(server, user, await newTopic(server, user, bot._id), 'n=0');
    expect(failed.at(-1)?.event).toBe('error');
    expect(await billing(server, user)).toMatchObject({ balance: 40, reserved: 0 });

    // 100 replies at once, each reporting its own usage.
    model.script((request) => {
      const n = Number(textOf(request.messages.at(-1)?.content).replace('n=', ''));
      return {
        chunks: ['Counted', ` ${n}`],
        delayMs: 20,
        usage: { prompt_tokens: 100 + n, completion_tokens: 10 + n },
      };
    });
    const topics = await Promise.all(Array.from({ length: 100 }, () => newTopic(server, user, bot._id)));
    const replies = await Promise.all(topics.map((topic, n) => say(server, user, topic, `n=${n}`)));
    replies.forEach((events, n) => {
      expect(replyText(events)).toBe(`Counted ${n}`);
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { cost: cost(n) / 10_000 } });
      expect(cost(n)).toBeLessThanOrEqual(maximum);
    });
    const total = replies.reduce((sum, _events, n) => sum + cost(n), 0);
    const after = await billing(server, user);
    expect(after.reserved).toBe(0);
    expect(tenThousandths(after.balance)).toBe(400_000 - total);
    const { rows } = await server.app.db.query<{ charges: string; sum: string }>(
      `select count(*) as charges, sum(amount) as sum from transactions where user_id = $1 and amount < 0`,
      [user.id],
    );
    expect(Number(rows[0].charges)).toBe(100);
    expect(tenThousandths(-Number(rows[0].sum))).toBe(total);
    // Asked for with the usage, and bounded by what was held.
    expect(model.requests.at(-1)).toMatchObject({
      stream_options: { include_usage: true },
      max_tokens: 1000,
    });
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  }, 120_000);

  it('/v1/chat/completions passes temperature, max_tokens and stop, and reports the provider’s usage', async () => {
    const metered = await addModel(server, owner, {
      name: 'API metered',
      provider: providerId,
      model: 'double-api',
      price: 0.01,
      inputPrice: 100,
      outputPrice: 200,
      contextTokens: 1000,
    });
    const bot = await addBot(server, owner, 'API bot', { models: [metered._id] });
    const user = await signUp(server, 'acme');
    const client = openAiClient(server, (await newKey(server, user)).key);
    model.script(() => ({ chunks: ['Exact', 'ly'], usage: { prompt_tokens: 40, completion_tokens: 5 } }));
    const completion = await client.chat.completions
      .create({
        model: bot._id,
        messages: [{ role: 'user', content: 'Count me' }],
        temperature: 0.3,
        max_tokens: 50,
        stop: ['\n\n', 'END'],
      })
      .withResponse();
    expect(completion.data.choices[0].message.content).toBe('Exactly');
    expect(completion.data.usage).toEqual({ prompt_tokens: 40, completion_tokens: 5, total_tokens: 45 });
    expect(completion.response.headers.get('x-parley-usage')).toBe('provider');
    expect(model.requests.at(-1)).toMatchObject({
      model: 'double-api',
      temperature: 0.3,
      max_tokens: 50,
      stop: ['\n\n', 'END'],
    });
    expect(completion.data.choices[0].finish_reason).toBe('stop');
    // Held 0.01 + 1000 × 0.0001 + 50 × 0.0002, charged 0.01 + 40 × 0.0001 + 5 × 0.0002 = 0.015.
    expect(tenThousandths(10 - (await billing(server, user)).balance)).toBe(150);
    // A reply that reaches max_tokens ends with finish reason `length`, as OpenAI's.
    const cut = await client.chat.completions.create({
      model: bot._id,
      messages: [{ role: 'user', content: 'Count me' }],
      max_tokens: 1,
    });
    expect(cut.choices[0]).toMatchObject({ message: { content: 'Exact' }, finish_reason: 'length' });

    model.script(() => ({ chunks: ['Stream', 'ed'], usage: { prompt_tokens: 12, completion_tokens: 3 } }));
    const chunks = await client.chat.completions.create({
      model: bot._id,
      messages: [{ role: 'user', content: 'Stream me' }],
      stream: true,
      stream_options: { include_usage: true },
      stop: 'END',
    });
    const received: Json[] = [];
    for await (const chunk of chunks) received.push(chunk);
    expect(received.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('Streamed');
    expect(received.at(-1)?.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
    expect(model.requests.at(-1)).toMatchObject({ stop: ['END'] });
    expect(model.requests.at(-1)).not.toHaveProperty('temperature');

    // Out of range: OpenAI's error, nothing sent.
    const sentBefore = model.requests.length;
    await expect(
      client.chat.completions.create({
        model: bot._id,
        messages: [{ role: 'user', content: 'x' }],
        temperature: 5,
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(model.requests.length).toBe(sentBefore);
    const { rows } = await server.app.db.query<{ model_id: string }>(
      'select model_id from api_calls where user_id = $1',
      [user.id],
    );
    expect(rows.map((row) => row.model_id)).toEqual([metered._id, metered._id, metered._id]);
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });
});
