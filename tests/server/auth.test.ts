import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, encrypter, signUp, startApp, type TestServer } from '../support/app';
import { readCode } from '../support/outbox';

describe('auth, users, bots and billing over real HTTP', () => {
  let server: TestServer;
  let encrypt: (value: string) => string;

  beforeAll(async () => {
    server = await startApp({ RATE_LIMIT_LOGIN_FAILURES: '3' });
    encrypt = await encrypter(server);
  });
  afterAll(() => server.close());

  it('takes a new user from code to signup, login, verify, me, bots and billing', async () => {
    const user = await signUp(server);
    const login = await call(server, '/auth/login', {
      body: { email: encrypt(user.email), password: encrypt(user.password) },
    });
    expect(login.status).toBe(200);
    const token = login.body.token as string;

    expect((await call(server, '/auth/verify', { token })).body).toEqual({ verified: 1 });
    const me = await call(server, '/api/v1/user/me', { token });
    expect(me.body).toMatchObject({
      _id: user.id,
      username: user.username,
      displayName: user.displayName,
      email: user.email,
      organization: 'app',
    });

    const bots = await call(server, '/api/v1/bot', { token });
    expect(bots.status).toBe(200);
    const names = bots.body.map((bot: { name: string }) => bot.name);
    expect(names).toEqual(expect.arrayContaining(['ELIZA', 'Calculator', 'Translator', 'Oracle']));
    const eliza = bots.body.find((bot: { name: string }) => bot.name === 'ELIZA');
    expect(eliza).toMatchObject({ active: true, platform: { name: 'builtin' }, price: 0.01 });
    expect(eliza.categories[0]).toEqual({ _id: expect.any(String), name: expect.any(String) });
    expect(bots.body.find((bot: { name: string }) => bot.name === 'Oracle').active).toBe(false);
    expect(bots.body.find((bot: { name: string }) => bot.name === 'Assistant').active).toBe(false);

    const billing = await call(server, `/payment/billing-info/${user.id}`, { token });
    expect(billing.body).toMatchObject({ balance: 10, currency: 'EUR' });
    expect(billing.body.transactions).toEqual([
      expect.objectContaining({ amount: 10, description: 'Welcome credit' }),
    ]);

    const notifications = await call(server, '/api/v1/notification', { token });
    expect(notifications.body).toEqual([
      expect.objectContaining({ title: 'Welcome to Parley', read: false }),
    ]);
    const read = await call(server, `/api/v1/notification/${notifications.body[0]._id}`, {
      method: 'PATCH',
      token,
      body: { read: true },
    });
    expect(read.body).toMatchObject({ read: true });
  });

  it('refuses a duplicate email or username with 409 and a clear message', async () => {
    const first = await signUp(server);
    await expect(signUp(server, 'app', { email: first.email })).rejects.toThrow(/already registered/);
    await expect(signUp(server, 'app', { username: first.username.toUpperCase() })).rejects.toThrow(
      /username is taken/,
    );
  });

  async function askCode(email: string) {
    expect((await call(server, '/auth/otp', { body: { email: encrypt(email) } })).status).toBe(200);
    return readCode(server.dataDir, email);
  }
  const signupWith = (email: string, otp: string, username = `u${Math.random().toString(36).slice(2, 10)}`) =>
    call(server, '/auth/signup', {
      body: {
        username,
        displayName: 'Tester',
        email: encrypt(email),
        password: encrypt('long enough password'),
        otp,
      },
    });

  it('accepts a code once only', async () => {
    const email = `once${Date.now()}@example.org`;
    const code = await askCode(email);
    expect((await signupWith(email, code)).status).toBe(200);
    const again = await signupWith(email, code);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/code is wrong or has expired/);
  });

  it('refuses an expired code', async () => {
    const email = `late${Date.now()}@example.org`;
    const code = await askCode(email);
    await server.app.db.query(
      "update one_time_codes set expires_at = now() - interval '1 second' where email = $1",
      [email],
    );
    expect((await signupWith(email, code)).status).toBe(400);
  });

  it('burns a code after five wrong tries', async () => {
    const email = `guess${Date.now()}@example.org`;
    const code = await askCode(email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await signupWith(email, wrong)).status).toBe(400);
    expect((await signupWith(email, code)).status).toBe(400);
  });

  it('limits codes per address', async () => {
    const email = `many${Date.now()}@example.org`;
    for (let index = 0; index < 5; index += 1)
      expect((await call(server, '/auth/otp', { body: { email: encrypt(email) } })).status).toBe(200);
    const refused = await call(server, '/auth/otp', { body: { email: encrypt(email) } });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/Too many codes/);
  });

  it('answers every failed login alike, undecryptable fields included, then rate-limits', async () => {
    const user = await signUp(server);
    const wrongPassword = await call(server, '/auth/login', {
      body: { email: encrypt(user.email), password: encrypt('nope nope nope') },
    });
    const unknownUser = await call(server, '/auth/login', {
      body: { email: encrypt('ghost@example.org'), password: encrypt('x') },
    });
    const garbage = await call(server, '/auth/login', {
      body: { email: 'bm90IGVuY3J5cHRlZA==', password: 'AAAA' },
    });
    for (const answer of [wrongPassword, unknownUser, garbage]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
    }
    for (const attempt of ['again wrong', 'still wrong']) {
      await call(server, '/auth/login', { body: { email: encrypt(user.email), password: encrypt(attempt) } });
    }
    const limited = await call(server, '/auth/login', {
      body: { email: encrypt(user.email), password: encrypt(user.password) },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/Too many failed attempts/);
  });

  it('revokes every token of a user on logout everywhere', async () => {
    const user = await signUp(server);
    expect(
      (await call(server, '/auth/logout-everywhere', { method: 'POST', token: user.token, body: {} })).status,
    ).toBe(200);
    expect((await call(server, '/auth/verify', { token: user.token })).body).toEqual({ verified: 0 });
    expect((await call(server, '/api/v1/user/me', { token: user.token })).status).toBe(401);
  });

  it('refuses tokens that are forged, of another algorithm or missing', async () => {
    const user = await signUp(server);
    const [header, payload] = user.token.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const tampered = `${header}.${payload}.${'A'.repeat(43)}`;
    for (const token of [unsigned, tampered, 'not-a-token']) {
      expect((await call(server, '/api/v1/user/me', { token })).status).toBe(401);
      expect((await call(server, '/auth/verify', { token })).body).toEqual({ verified: 0 });
    }
    expect((await call(server, '/api/v1/bot')).status).toBe(401);
  });

  it('shows billing to its own user only', async () => {
    const [alice, bob] = [await signUp(server), await signUp(server)];
    const peek = await call(server, `/payment/billing-info/${bob.id}`, { token: alice.token });
    expect(peek.status).toBe(403);
    expect(peek.body.error).toMatch(/your own billing/);
  });

  it('answers organizations by subdomain, 404 when unknown, and refuses unknown Organization headers', async () => {
    expect((await call(server, '/api/v1/organization/acme')).body).toMatchObject({
      subdomain: 'acme',
      name: 'Acme Corporation',
    });
    const unknown = await call(server, '/api/v1/organization/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBeTruthy();
    const header = await call(server, '/api/v1/bot', { tenant: 'nowhere' });
    expect(header).toMatchObject({ status: 400, body: { code: 'UNKNOWN_ORGANIZATION' } });
  });

  it('validates bodies with messages a person can read', async () => {
    const missing = await call(server, '/auth/signup', { body: { username: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/Please fill in/);
    const extra = await call(server, '/api/v1/translate', {
      body: { text: 'Hello', language: 'de', admin: true },
    });
    expect(extra.body).toEqual({ error: 'Unknown field: admin.', code: 'INVALID_INPUT' });
    const broken = await call(server, '/api/v1/translate', { body: '{"text": ' });
    expect(broken).toMatchObject({ status: 400, body: { error: 'The request body is not valid JSON.' } });
    const huge = await call(server, '/api/v1/translate', {
      body: { text: 'x'.repeat(100_000), language: 'de' },
    });
    expect(huge.status).toBe(413);
  });

  it('translates from the built-in catalogs and says so when it cannot', async () => {
    expect(
      (await call(server, '/api/v1/translate', { body: { text: 'Log in', language: 'de' } })).body,
    ).toEqual({ text: 'Anmelden', translated: true });
    expect(
      (await call(server, '/api/v1/translate', { body: { text: 'Log in', language: 'he' } })).body,
    ).toEqual({ text: 'התחברות', translated: true });
    expect(
      (await call(server, '/api/v1/translate', { body: { text: 'A sentence nobody wrote', language: 'de' } }))
        .body,
    ).toEqual({
      text: 'A sentence nobody wrote',
      translated: false,
    });
  });

  it('sends security headers with a strict content security policy', async () => {
    const { headers } = await call(server, '/health');
    expect(headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });
});
