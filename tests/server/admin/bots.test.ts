import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble } from '../../support/openai-double';
import { type Actor, admin, loginOwner, stream } from './support';

const plainKey = 'sk-live-PLAINTEXT-never-shown-4321';

describe('admin area: bots, categories and providers', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let owner: Actor;
  /** Every admin answer of this file, searched for the plain key at the end. */
  const seen: string[] = [];
  const as = async (path: string, options: { method?: string; body?: Json } = {}) => {
    const answer = await admin(server, owner, path, options);
    seen.push(JSON.stringify(answer.body));
    return answer;
  };

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ ALLOW_PRIVATE_PROVIDER_URLS: 'true' });
    owner = await loginOwner(server, 'acme');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  let providerId = '';
  let categoryId = '';
  let botId = '';

  it('adds a provider: the key is sealed at rest and shown masked; its models come from GET /models', async () => {
    const created = await as('/provider', {
      body: { name: owner.encrypt('Local double'), baseUrl: `${model.url}/`, apiKey: plainKey },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Local double',
      baseUrl: model.url,
      apiKey: '••••4321',
      bots: 0,
    });
    providerId = created.body._id;
    const { rows } = await server.app.db.query<{ api_key: string }>(
      'select api_key from providers where id = $1',
      [providerId],
    );
    expect(rows[0].api_key).toMatch(/^v1:/);
    expect(rows[0].api_key).not.toContain('PLAINTEXT');

    const models = await as(`/provider/${providerId}/models`);
    expect(models.status).toBe(200);
    expect(models.body).toEqual({ models: ['double-1', 'double-2'] });
    expect(model.authorizations.at(-1)).toBe(`Bearer ${plainKey}`);
    expect((await as('/provider')).body).toEqual([
      expect.objectContaining({ _id: providerId, apiKey: '••••4321' }),
    ]);
  });

  it('without OPENAI_BASE_URL the server has no provider of its own: its model list is a 404 that says so', async () => {
    expect((await as('/provider/server')).body).toEqual({ configured: false });
    const models = await as('/provider/server/models');
    expect(models).toMatchObject({ status: 404, body: { code: 'PROVIDER_NOT_CONFIGURED' } });
    expect(models.body.error).toContain('OPENAI_BASE_URL');
  });

  it('refuses a name sent in clear (every name arrives encrypted) and a duplicate name with its field', async () => {
    const clear = await as('/category', { body: { name: 'Plain' } });
    expect(clear.status).toBe(400);
    const first = await as('/category', { body: { name: owner.encrypt('Research') } });
    expect(first.status).toBe(201);
    categoryId = first.body._id;
    const again = await as('/category', { body: { name: owner.encrypt('Research') } });
    expect(again).toMatchObject({ status: 409, body: { code: 'NAME_TAKEN', field: 'name' } });
  });

  it('validates bots with a message and a field', async () => {
    const base = {
      name: owner.encrypt('Broken'),
      description: '',
      platform: 'builtin',
      price: 0,
      categories: [],
      active: true,
    };
    expect((await as('/bot', { body: base })).body).toMatchObject({ field: 'engine' });
    expect((await as('/bot', { body: { ...base, engine: 'eliza', price: 'free' } })).body).toMatchObject({
      field: 'price',
      code: 'INVALID_INPUT',
    });
    expect((await as('/bot', { body: { ...base, engine: 'eliza', extra: 1 } })).body).toMatchObject({
      error: 'Unknown field: extra.',
    });
    const otherOrganization = await loginOwner(server, 'app');
    const foreign = await admin(server, otherOrganization, '/category', {
      body: { name: otherOrganization.encrypt('Theirs') },
    });
    const crossing = await as('/bot', { body: { ...base, engine: 'eliza', categories: [foreign.body._id] } });
    expect(crossing).toMatchObject({ status: 404, body: { field: 'categories' } });
  });

  it('creates a model bot on the provider: GET /api/v1/bot shows it at once, and members chat with it, charged', async () => {
    const user = await signUp(server, 'acme');
    // The catalogue is kept per organization: read it first, so the create must drop it.
    await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' });
    const created = await as('/bot', {
      body: {
        name: owner.encrypt('Double Bot'),
        description: 'Answers through the organization’s provider.',
        platform: 'openai',
        provider: providerId,
        model: 'double-2',
        systemPrompt: 'Be a double.',
        temperature: 0.3,
        price: 0.25,
        categories: [categoryId],
        active: true,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Double Bot',
      platform: 'openai',
      provider: providerId,
      model: 'double-2',
      temperature: 0.3,
      price: 0.25,
      active: true,
      categories: [{ _id: categoryId, name: 'Research' }],
    });
    botId = created.body._id;
    const list = await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' });
    expect(list.body.find((bot: Json) => bot._id === botId)).toMatchObject({
      name: 'Double Bot',
      active: true,
      platform: { name: 'openai' },
      price: 0.25,
      models: [],
      userParameters: false,
    });

    const topic = await call(server, '/api/v1/topic', {
      token: user.token,
      tenant: 'acme',
      body: { bot: botId },
    });
    expect(topic.status).toBe(201);
    const reply = await stream(server, `/api/v1/topic/${topic.body._id}/message`, user.token, 'acme', {
      text: 'hello double',
    });
    expect(reply.events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.25 } });
    expect(model.requests.at(-1)).toMatchObject({
      model: 'double-2',
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'Be a double.' },
        { role: 'user', content: 'hello double' },
      ],
    });
    expect(model.authorizations.at(-1)).toBe(`Bearer ${plainKey}`);
    const billing = await call(server, `/payment/billing-info/${user.id}`, {
      token: user.token,
      tenant: 'acme',
    });
    expect(billing.body.balance).toBeCloseTo(10 - 0.25);
  });

  it('"Try it" runs the bot being edited as SSE, charging nothing and storing no conversation', async () => {
    const before = await call(server, `/payment/billing-info/${owner.id}`, {
      token: owner.token,
      tenant: 'acme',
    });
    const tried = await stream(server, `/api/v1/admin/bot/${botId}/try`, owner.token, 'acme', {
      messages: [
        { role: 'user', text: 'first' },
        { role: 'bot', text: 'answer' },
        { role: 'user', text: 'try me' },
      ],
    });
    expect(tried.status).toBe(200);
    expect(tried.type).toMatch(/^text\/event-stream/);
    const tokens = tried.events.filter((event) => event.event === 'token');
    expect(tokens.map((event) => event.data.text).join('')).toBe('You said: try me');
    expect(tokens.at(-1)?.id).toBe('You said: try me'.length);
    expect(tried.events.at(-1)).toEqual({ event: 'done', data: { cost: 0, price: 0.25 } });
    expect(model.requests.at(-1)?.messages).toEqual([
      { role: 'system', content: 'Be a double.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: 'try me' },
    ]);
    const after = await call(server, `/payment/billing-info/${owner.id}`, {
      token: owner.token,
      tenant: 'acme',
    });
    expect(after.body.balance).toBe(before.body.balance);
    const topics = await call(server, '/api/v1/topic', { token: owner.token, tenant: 'acme' });
    expect(topics.body).toEqual([]);
    const lastWord = await as(`/bot/${botId}/try`, { body: { messages: [{ role: 'bot', text: 'hi' }] } });
    expect(lastWord).toMatchObject({ status: 400, body: { field: 'messages' } });
  });

  it('edits and retires a bot, and GET /api/v1/bot follows at once; retired bots are kept', async () => {
    const user = await signUp(server, 'acme');
    await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' });
    const renamed = await as(`/bot/${botId}`, {
      method: 'PATCH',
      body: { name: owner.encrypt('Double Two'), price: 0.5, userParameters: true },
    });
    expect(renamed.body).toMatchObject({ name: 'Double Two', price: 0.5, model: 'double-2' });
    // Members' chats offer their settings where the bot lets them tune its replies.
    let list = await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' });
    expect(list.body.find((bot: Json) => bot._id === botId)).toMatchObject({
      name: 'Double Two',
      price: 0.5,
      userParameters: true,
    });

    const inUse = await as(`/provider/${providerId}`, { method: 'DELETE' });
    expect(inUse).toMatchObject({ status: 409, body: { code: 'PROVIDER_IN_USE' } });

    const retired = await as(`/bot/${botId}`, { method: 'DELETE' });
    expect(retired.body).toMatchObject({ _id: botId, active: false });
    list = await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' });
    expect(list.body.find((bot: Json) => bot._id === botId)).toMatchObject({ active: false });
    expect((await as('/bot')).body.find((bot: Json) => bot._id === botId)).toMatchObject({ active: false });
  });

  it('renames and deletes a category: its bots keep working without it', async () => {
    const bot = await as('/bot', {
      body: {
        name: owner.encrypt('Filed'),
        description: '',
        platform: 'builtin',
        engine: 'calculator',
        price: 0,
        categories: [categoryId],
        active: true,
      },
    });
    const user = await signUp(server, 'acme');
    const renamed = await as(`/category/${categoryId}`, {
      method: 'PATCH',
      body: { name: owner.encrypt('Lab') },
    });
    expect(renamed.body).toEqual({ _id: categoryId, name: 'Lab', bots: 2 });
    let list = await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' });
    expect(list.body.find((item: Json) => item._id === bot.body._id).categories).toEqual([
      { _id: categoryId, name: 'Lab' },
    ]);
    expect((await as(`/category/${categoryId}`, { method: 'DELETE' })).body).toEqual({ success: true });
    list = await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' });
    expect(list.body.find((item: Json) => item._id === bot.body._id)).toMatchObject({
      active: true,
      categories: [],
    });
    const topic = await call(server, '/api/v1/topic', {
      token: user.token,
      tenant: 'acme',
      body: { bot: bot.body._id },
    });
    const reply = await stream(server, `/api/v1/topic/${topic.body._id}/message`, user.token, 'acme', {
      text: '2+3',
    });
    expect(reply.events.at(-1)?.event).toBe('done');
  });

  it('changes and deletes a provider; the plain key appears in no admin answer, the audit log included', async () => {
    const changed = await as(`/provider/${providerId}`, {
      method: 'PATCH',
      body: { apiKey: 'sk-second-key-abcdefgh-8765' },
    });
    expect(changed.body.apiKey).toBe('••••8765');
    const noKey = await as(`/provider/${providerId}`, { method: 'PATCH', body: { apiKey: null } });
    expect(noKey.body.apiKey).toBeNull();
    await as(`/provider/${providerId}`, { method: 'PATCH', body: { apiKey: plainKey } });
    expect((await as(`/provider/${providerId}`, { method: 'DELETE' })).body).toEqual({ success: true });
    await as('/audit');
    await as('/audit?limit=100');
    await as('/bot');
    for (const body of seen) {
      expect(body).not.toContain(plainKey);
      expect(body).not.toContain('sk-second-key');
      expect(body).not.toContain('PLAINTEXT');
    }
    const audit = (await as('/audit?limit=100')).body.items;
    expect(audit.map((entry: Json) => entry.action)).toEqual(
      expect.arrayContaining([
        'provider.create',
        'provider.update',
        'provider.delete',
        'bot.create',
        'bot.retire',
      ]),
    );
  });

  it('reports usage per day, per bot and per member, as JSON and as a CSV download', async () => {
    const usage = await as('/usage?days=30');
    expect(usage.status).toBe(200);
    expect(usage.body.perDay).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.body.perDay.at(-1)).toMatchObject({ date: today, messages: 2, replies: 2, spend: 0.25 });
    expect(usage.body.perDay[0].date < today).toBe(true);
    expect(usage.body).toMatchObject({
      days: 30,
      currency: 'EUR',
      totals: { messages: 2, replies: 2, spend: 0.25 },
    });
    expect(usage.body.perBot).toEqual([
      { _id: botId, name: 'Double Two', messages: 1, replies: 1, spend: 0.25 },
      expect.objectContaining({ name: 'Filed', messages: 1, replies: 1, spend: 0 }),
    ]);
    expect(usage.body.perMember).toHaveLength(2);
    expect(usage.body.perMember[0]).toEqual({
      _id: expect.any(String),
      displayName: expect.any(String),
      username: expect.any(String),
      messages: 1,
      replies: 1,
      spend: 0.25,
    });
    expect((await as('/usage?days=0')).body.field).toBe('days');
    expect((await as('/usage?days=1')).body.perDay).toHaveLength(1);

    const csv = await fetch(`${server.url}/api/v1/admin/usage?days=7&format=csv`, {
      headers: { authorization: `Bearer ${owner.token}`, organization: 'acme' },
    });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="parley-acme-usage-7d.csv"');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('section,date,id,name,messages,replies,spend,calls');
    expect(lines.filter((line) => line.startsWith('day,'))).toHaveLength(7);
    expect(lines).toContain(`day,${today},,,2,2,0.25,`);
    expect(lines).toContain(`bot,,${botId},Double Two,1,1,0.25,`);
  });

  it('a bot on catalogue models runs where its default model runs, here without a server model of its own', async () => {
    const provider = await as('/provider', {
      body: { name: owner.encrypt('Catalogue double'), baseUrl: model.url, apiKey: plainKey },
    });
    const onProvider = await as('/model', {
      body: {
        name: owner.encrypt('Provider model'),
        provider: provider.body._id,
        model: 'double-1',
        price: 0.1,
      },
    });
    const onServer = await as('/model', {
      body: { name: owner.encrypt('Server model'), model: 'double-2', price: 0.2 },
    });
    const bots: string[] = [];
    for (const [name, models] of [
      ['Catalogue Bot', [onProvider.body._id, onServer.body._id]],
      ['Serverless Bot', [onServer.body._id]],
    ] as const) {
      const created = await as('/bot', {
        body: {
          name: owner.encrypt(name),
          description: '',
          platform: 'openai',
          price: 9,
          categories: [],
          active: true,
          models: [...models],
        },
      });
      expect(created.status).toBe(201);
      bots.push(created.body._id as string);
    }
    const user = await signUp(server, 'acme');
    const list = (await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' })).body as Json[];
    expect(list.find((bot) => bot._id === bots[0])).toMatchObject({ active: true, price: 0.1 });
    // Its default model runs on the server's own model server, and there is none here.
    expect(list.find((bot) => bot._id === bots[1])).toMatchObject({ active: false });
    const refused = await call(server, '/api/v1/topic', {
      token: user.token,
      tenant: 'acme',
      body: { bot: bots[1] },
    });
    expect(refused.status).toBe(409);
    const topic = await call(server, '/api/v1/topic', {
      token: user.token,
      tenant: 'acme',
      body: { bot: bots[0] },
    });
    expect(topic.status).toBe(201);
    const reply = await stream(server, `/api/v1/topic/${topic.body._id}/message`, user.token, 'acme', {
      text: 'which model?',
    });
    expect(reply.events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.1 } });
    expect(model.requests.at(-1)?.model).toBe('double-1');
    expect(model.authorizations.at(-1)).toBe(`Bearer ${plainKey}`);
    // "Try it" runs it on its default model too.
    const tried = await stream(server, `/api/v1/admin/bot/${bots[0]}/try`, owner.token, 'acme', {
      messages: [{ role: 'user', text: 'try the catalogue' }],
    });
    expect(tried.events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0, price: 0.1 } });
    expect(model.requests.at(-1)?.model).toBe('double-1');
  });
});
