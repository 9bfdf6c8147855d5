import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { readCode } from '../../support/outbox';
import { readEvents } from '../../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;

describe('sessions and self-service accounts over real HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server.close());

  const me = (token: string) => call(server, '/api/v1/user/me', { token });
  const login = async (user: User, password = user.password) =>
    call(server, '/auth/login', {
      body: { email: user.encrypt(user.email), password: user.encrypt(password) },
    });

  it('logout revokes that token on the server, and only that one', async () => {
    const user = await signUp(server);
    const other = (await login(user)).body.token as string;
    expect(
      (await call(server, '/auth/logout', { method: 'POST', token: user.token, body: {} })).body,
    ).toEqual({
      success: true,
    });
    expect((await me(user.token)).status).toBe(401);
    expect((await call(server, '/auth/verify', { token: user.token })).body).toEqual({ verified: 0 });
    expect((await me(other)).status).toBe(200);
    expect((await call(server, '/auth/logout', { method: 'POST', token: user.token, body: {} })).status).toBe(
      401,
    );
  });

  it('resets a forgotten password with a mailed code: other sessions end, the new password works', async () => {
    const user = await signUp(server);
    const before = (await login(user)).body.token as string;
    const forgot = await call(server, '/auth/password/forgot', { body: { email: user.encrypt(user.email) } });
    expect(forgot.body).toEqual({ sent: true });
    const otp = await readCode(server.dataDir, user.email);
    const reset = await call(server, '/auth/password/reset', {
      body: { email: user.encrypt(user.email), otp, password: user.encrypt('a brand new password') },
    });
    expect(reset.status).toBe(200);
    expect((await me(reset.body.token)).status).toBe(200);
    expect((await me(before)).status).toBe(401);
    expect((await me(user.token)).status).toBe(401);
    expect((await login(user)).status).toBe(401);
    expect((await login(user, 'a brand new password')).status).toBe(200);
    // Single use.
    const again = await call(server, '/auth/password/reset', {
      body: { email: user.encrypt(user.email), otp, password: user.encrypt('yet another password') },
    });
    expect(again).toMatchObject({ status: 400, body: { code: 'INVALID_CODE' } });
  });

  it('answers forgot alike for unknown addresses, and keeps sign-up and reset codes apart', async () => {
    const user = await signUp(server);
    const ghost = await call(server, '/auth/password/forgot', {
      body: { email: user.encrypt('ghost@example.org') },
    });
    expect(ghost).toMatchObject({ status: 200, body: { sent: true } });
    await expect(readCode(server.dataDir, 'ghost@example.org', 500)).rejects.toThrow(/no code/);

    // A sign-up code for the address cannot reset its password.
    await call(server, '/auth/otp', { body: { email: user.encrypt(user.email) } });
    const signupCode = await readCode(server.dataDir, user.email);
    const reset = await call(server, '/auth/password/reset', {
      body: { email: user.encrypt(user.email), otp: signupCode, password: user.encrypt('some new password') },
    });
    expect(reset).toMatchObject({ status: 400, body: { code: 'INVALID_CODE' } });
    const weak = await call(server, '/auth/password/reset', {
      body: { email: user.encrypt(user.email), otp: '000000', password: user.encrypt('short') },
    });
    expect(weak).toMatchObject({ status: 400, body: { code: 'WEAK_PASSWORD', field: 'password' } });
  });

  it('changes the password: the current one is checked, every other session ends', async () => {
    const user = await signUp(server);
    const other = (await login(user)).body.token as string;
    const wrong = await call(server, '/auth/password/change', {
      token: user.token,
      body: { password: user.encrypt('not my password'), newPassword: user.encrypt('next password 2') },
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'WRONG_PASSWORD', field: 'password' } });
    const weak = await call(server, '/auth/password/change', {
      token: user.token,
      body: { password: user.encrypt(user.password), newPassword: user.encrypt('short') },
    });
    expect(weak).toMatchObject({ status: 400, body: { code: 'WEAK_PASSWORD', field: 'newPassword' } });
    const changed = await call(server, '/auth/password/change', {
      token: user.token,
      body: { password: user.encrypt(user.password), newPassword: user.encrypt('next password 2') },
    });
    expect(changed.status).toBe(200);
    expect((await me(changed.body.token)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    // The session that changed it goes on, under its old token and the new one alike.
    expect((await me(user.token)).status).toBe(200);
    expect((await login(user, 'next password 2')).status).toBe(200);
  });

  it('edits the display name and username, with errors that name their field', async () => {
    const user = await signUp(server);
    const taken = await signUp(server);
    const edited = await call(server, '/api/v1/user/me', {
      method: 'PATCH',
      token: user.token,
      body: { displayName: '  Ada\u202E Lovelace\u200B ', username: 'ada.lovelace' },
    });
    expect(edited.body).toMatchObject({ displayName: 'Ada Lovelace', username: 'ada.lovelace' });
    expect((await me(user.token)).body).toMatchObject({ displayName: 'Ada Lovelace' });
    const patch = (body: unknown) =>
      call(server, '/api/v1/user/me', { method: 'PATCH', token: user.token, body });
    expect(await patch({ username: taken.username.toUpperCase() })).toMatchObject({
      status: 409,
      body: { code: 'USERNAME_TAKEN', field: 'username' },
    });
    expect(await patch({ username: 'ada lovelace' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_USERNAME', field: 'username' },
    });
    expect(await patch({ displayName: '\u200B\u200D' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_DISPLAY_NAME', field: 'displayName' },
    });
    expect(await patch({})).toMatchObject({ status: 400 });
  });

  it('refuses look-alike usernames and invisible display names at sign-up', async () => {
    // `ｄｅｍｏ` (fullwidth) folds to the seeded `demo`; `dеmo` has a Cyrillic е.
    await expect(signUp(server, 'app', { username: 'ｄｅｍｏ' })).rejects.toThrow(/username is taken/);
    await expect(signUp(server, 'app', { username: 'DEMO' })).rejects.toThrow(/username is taken/);
    await expect(signUp(server, 'app', { username: 'dеmo' })).rejects.toThrow(/INVALID_USERNAME/);
    const user = await signUp(server);
    const otp = async (email: string) => {
      await call(server, '/auth/otp', { body: { email: user.encrypt(email) } });
      return readCode(server.dataDir, email);
    };
    const email = `bidi${Date.now()}@example.org`;
    const invisible = await call(server, '/auth/signup', {
      body: {
        username: `bidi${Date.now()}`,
        displayName: '\u202E\u200B',
        email: user.encrypt(email),
        password: user.encrypt('long enough password'),
        otp: await otp(email),
      },
    });
    expect(invisible).toMatchObject({
      status: 400,
      body: { code: 'INVALID_DISPLAY_NAME', field: 'displayName' },
    });
  });

  it('exports the account with its conversations, messages and transactions as a download', async () => {
    const user = await signUp(server);
    const bots = await call(server, '/api/v1/bot', { token: user.token });
    const calculator = bots.body.find((bot: { name: string }) => bot.name === 'Calculator');
    const topic = await call(server, '/api/v1/topic', { token: user.token, body: { bot: calculator._id } });
    const response = await fetch(`${server.url}/api/v1/topic/${topic.body._id}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: '6 * 7' }),
    });
    await readEvents(response);
    const exported = await call(server, '/api/v1/user/me/export', { token: user.token });
    expect(exported.headers.get('content-disposition')).toBe(
      `attachment; filename="parley-${user.username}.json"`,
    );
    expect(exported.body.account).toMatchObject({ _id: user.id, email: user.email, balance: 10 });
    expect(exported.body.topics).toHaveLength(1);
    expect(
      exported.body.topics[0].messages.map((message: { role: string; text: string }) => message.role),
    ).toEqual(['user', 'bot']);
    expect(exported.body.topics[0].messages[1].text).toContain('42');
    expect(exported.body.transactions).toEqual([
      expect.objectContaining({ amount: 10, description: 'Welcome credit' }),
    ]);
    expect((await call(server, '/api/v1/user/me/export')).status).toBe(401);
  });

  it('deletes the account only with its password; a wrong one ends the session', async () => {
    const user = await signUp(server);
    const spare = (await login(user)).body.token as string;
    const wrong = await call(server, '/api/v1/user/me', {
      method: 'DELETE',
      token: user.token,
      body: { password: user.encrypt('not the password') },
    });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'WRONG_PASSWORD' } });
    expect((await me(user.token)).status).toBe(401);
    const bots = await call(server, '/api/v1/bot', { token: spare });
    const topic = await call(server, '/api/v1/topic', { token: spare, body: { bot: bots.body[0]._id } });
    const deleted = await call(server, '/api/v1/user/me', {
      method: 'DELETE',
      token: spare,
      body: { password: user.encrypt(user.password) },
    });
    expect(deleted.body).toEqual({ success: true });
    expect((await me(spare)).status).toBe(401);
    expect((await login(user)).status).toBe(401);
    const { rows } = await server.app.db.query('select 1 from topics where id = $1', [topic.body._id]);
    expect(rows).toEqual([]);
  });
});

describe('the organization of a request without an Organization header comes from its host', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server.close());

  const botNames = async (options: { host?: string; tenant?: string; token: string }) => {
    const answer = await call(server, '/api/v1/bot', options);
    return {
      status: answer.status,
      names: Array.isArray(answer.body) ? answer.body.map((bot: { name: string }) => bot.name) : [],
    };
  };

  it('reads acme from acme.parley.localhost; IPs, localhost and unknown labels mean app', async () => {
    const acme = await signUp(server, 'acme');
    const plain = await signUp(server, 'app');
    expect((await botNames({ host: 'acme.parley.localhost:3000', token: acme.token })).names).toContain(
      'Acme Helpdesk',
    );
    expect(
      (await call(server, '/api/v1/user/me', { host: 'acme.parley.localhost', token: acme.token })).body,
    ).toMatchObject({
      organization: 'acme',
    });
    for (const host of [
      '127.0.0.1:3000',
      '[::1]:3000',
      '[2001:db8::1]',
      'localhost:3000',
      'nowhere.parley.localhost',
      'parley.example',
    ]) {
      const answer = await botNames({ host, token: plain.token });
      expect(answer.status).toBe(200);
      expect(answer.names).not.toContain('Acme Helpdesk');
    }
    // A token works only in its own organization, whatever the host says.
    expect(
      (await call(server, '/api/v1/user/me', { host: 'acme.parley.localhost', token: plain.token })).status,
    ).toBe(401);
  });

  it('refuses an Organization header that names another organization than the host', async () => {
    const acme = await signUp(server, 'acme');
    const same = await call(server, '/api/v1/user/me', {
      host: 'acme.parley.localhost',
      tenant: 'acme',
      token: acme.token,
    });
    expect(same.status).toBe(200);
    const other = await call(server, '/api/v1/bot', {
      host: 'acme.parley.localhost',
      tenant: 'app',
      token: acme.token,
    });
    expect(other).toMatchObject({ status: 400, body: { code: 'ORGANIZATION_MISMATCH' } });
  });
});
