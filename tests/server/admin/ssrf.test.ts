import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBot, botRequest, draftOf, draftProblems } from '../../../machines/botEditor';
import { isPrivateAddress } from '../../../server/security/outbound';
import { call, type Json, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble } from '../../support/openai-double';
import { readEvents } from '../../support/sse';
import { type Actor, admin, loginOwner } from './support';

describe('admin area: providers may not reach private networks (SSRF)', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let owner: Actor;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    // ALLOW_PRIVATE_PROVIDER_URLS is off by default; the server's own provider is the operator's, on
    // this machine.
    server = await startApp({ OPENAI_BASE_URL: model.url, OPENAI_MODEL: 'double-2' });
    owner = await loginOwner(server, 'acme');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('knows every private spelling of an address', () => {
    const refused = [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::1',
      'fe80::1',
      'fd12:3456::1',
      'fc00::1',
      'ff02::1',
    ];
    for (const address of refused) expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '172.32.0.1'])
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
  });

  it('refuses private, loopback, link-local and local names as base URLs, on create and on change', async () => {
    const port = new URL(model.url).port;
    const urls = [
      `http://127.0.0.1:${port}/v1`,
      `http://localhost:${port}/v1`,
      'http://10.1.2.3/v1',
      'http://169.254.169.254/latest/meta-data',
      `http://[::1]:${port}/v1`,
      `http://[::ffff:127.0.0.1]:${port}/v1`,
      'http://[::ffff:a9fe:a9fe]/',
      'http://0.0.0.0/',
      'http://2130706433/', // 127.0.0.1 as one number
      'http://0x7f.1/',
    ];
    for (const baseUrl of urls) {
      const answer = await admin(server, owner, '/provider', {
        body: { name: owner.encrypt(`P ${baseUrl}`), baseUrl, apiKey: 'sk-1234567890ab' },
      });
      expect([baseUrl, answer.status, answer.body.code, answer.body.field]).toEqual([
        baseUrl,
        400,
        'URL_NOT_ALLOWED',
        'baseUrl',
      ]);
    }
    for (const baseUrl of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'gopher://x/',
      'not a url',
      'http://user:pw@example.com/',
    ]) {
      const answer = await admin(server, owner, '/provider', {
        body: { name: owner.encrypt('Bad'), baseUrl },
      });
      expect([baseUrl, answer.status, answer.body.field]).toEqual([baseUrl, 400, 'baseUrl']);
    }
    // A public address is accepted (an IP literal: no DNS needed); changing it to a private one is not.
    const created = await admin(server, owner, '/provider', {
      body: { name: owner.encrypt('Public'), baseUrl: 'https://1.1.1.1/v1', apiKey: 'sk-1234567890ab' },
    });
    expect(created.status).toBe(201);
    const changed = await admin(server, owner, `/provider/${created.body._id}`, {
      method: 'PATCH',
      body: { baseUrl: 'http://127.0.0.1/v1' },
    });
    expect(changed).toMatchObject({ status: 400, body: { code: 'URL_NOT_ALLOWED', field: 'baseUrl' } });
    await admin(server, owner, `/provider/${created.body._id}`, { method: 'DELETE' });
  });

  it('names the way forward for a model server on this machine: the operator’s OPENAI_BASE_URL or ALLOW_PRIVATE_PROVIDER_URLS', async () => {
    const ollama = 'http://localhost:11434/v1';
    const refused = await admin(server, owner, '/provider', {
      body: { name: owner.encrypt('Ollama'), baseUrl: ollama },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'URL_NOT_ALLOWED', field: 'baseUrl' } });
    expect(refused.body.error).toContain(`OPENAI_BASE_URL=${ollama}`);
    expect(refused.body.error).toContain('ALLOW_PRIVATE_PROVIDER_URLS=true');
  });

  it('the server’s own provider (OPENAI_BASE_URL) lists its models, and a seeded model bot saves as its form shows it', async () => {
    expect((await admin(server, owner, '/provider/server')).body).toEqual({ configured: true });
    const models = await admin(server, owner, '/provider/server/models');
    expect(models).toMatchObject({ status: 200, body: { models: ['double-1', 'double-2'] } });

    // The seeded Assistant names no provider: it shows the model it runs, OPENAI_MODEL.
    const assistant = (await admin(server, owner, '/bot')).body.find((bot: Json) => bot.name === 'Assistant');
    expect(assistant).toMatchObject({ platform: 'openai', model: 'double-2' });
    expect(assistant.provider).toBeUndefined();
    // The editor's own check and body (machines/botEditor.ts): nothing to fix, saved as it is.
    const form = draftOf({
      ...assistant,
      categories: assistant.categories.map((c: Json) => c._id),
    } as AdminBot);
    expect(draftProblems(form)).toEqual([]);
    const request = botRequest(form);
    const saved = await admin(server, owner, `/bot/${assistant._id}`, {
      method: 'PATCH',
      body: { ...request, name: owner.encrypt(request.name) } as unknown as Json,
    });
    expect(saved).toMatchObject({
      status: 200,
      body: { name: 'Assistant', model: 'double-2', active: true },
    });
  });

  it('checks again when connecting: a name that now resolves to loopback (DNS rebinding) is refused for models and chat', async () => {
    // As if the name resolved to a public address when it was saved and to loopback now.
    const port = new URL(model.url).port;
    const { rows } = await server.app.db.query<{ id: string }>(
      `insert into providers (tenant, name, base_url) values ('acme', 'Rebound', $1) returning id`,
      [`http://localhost:${port}/v1`],
    );
    const providerId = rows[0].id;
    const before = model.authorizations.length + model.requests.length;
    const models = await admin(server, owner, `/provider/${providerId}/models`);
    expect(models).toMatchObject({ status: 400, body: { code: 'URL_NOT_ALLOWED' } });

    const bot = await admin(server, owner, '/bot', {
      body: {
        name: owner.encrypt('Rebound bot'),
        description: '',
        platform: 'openai',
        provider: providerId,
        price: 0.1,
        categories: [],
        active: true,
      },
    });
    expect(bot.status).toBe(201);
    const user = await signUp(server, 'acme');
    const topic = await call(server, '/api/v1/topic', {
      token: user.token,
      tenant: 'acme',
      body: { bot: bot.body._id },
    });
    const response = await fetch(`${server.url}/api/v1/topic/${topic.body._id}/message`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${user.token}`,
        organization: 'acme',
      },
      body: JSON.stringify({ text: 'hello' }),
    });
    const events = await readEvents(response);
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'PROVIDER_URL_REFUSED' } });
    const tried = await fetch(`${server.url}/api/v1/admin/bot/${bot.body._id}/try`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${owner.token}`,
        organization: 'acme',
      },
      body: JSON.stringify({ messages: [{ role: 'user', text: 'hello' }] }),
    });
    expect((await readEvents(tried)).at(-1)).toMatchObject({
      event: 'error',
      data: { code: 'PROVIDER_URL_REFUSED' },
    });
    // The double never heard of it; the failed reply cost nothing.
    expect(model.authorizations.length + model.requests.length).toBe(before);
    const billing = await call(server, `/payment/billing-info/${user.id}`, {
      token: user.token,
      tenant: 'acme',
    });
    expect(billing.body).toMatchObject({ balance: 10, reserved: 0 });
    const list: Json = await admin(server, owner, '/provider');
    expect(list.body.find((item: Json) => item._id === providerId).apiKey).toBeNull();
  });
});
