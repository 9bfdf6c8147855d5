import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeReturnUrl } from '../../server/auth/oidc/routes';
import { readIdpGroups } from '../../server/auth/oidc/store';
import { call, type Json, signUp, startApp, type TestServer, uniqueTag } from '../support/app';
import { FetchBrowser, type Idp, startIdp, throughIdp } from '../support/idpProcess';
import { hostileReturnUrls } from '../support/returnUrls';
import { type Actor, admin, loginOwner, member, readCode, seededOwner } from './admin/support';

const tenant = 'acme';
const otherRedirect = 'http://127.0.0.1:9/other/callback';

describe('sign-in with the organization’s identity provider (OpenID Connect)', () => {
  let server: TestServer;
  let guarded: TestServer;
  let idp: Idp;
  let owner: Actor;
  const parleySecret = `parley-secret-${randomBytes(8).toString('hex')}`;
  const otherSecret = `other-secret-${randomBytes(8).toString('hex')}`;

  const settings = (overrides: Json = {}) => ({
    issuer: idp.url,
    clientId: 'parley',
    clientSecret: parleySecret,
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { email: 'email', name: 'name', groups: 'groups' },
    label: 'Contoso',
    required: false,
    ...overrides,
  });
  const putSso = (body: Json, actor: Actor = owner, on: TestServer = server) =>
    admin(on, actor, '/sso', { method: 'PUT', body });
  const account = async (login: string, claims: Json) => {
    const answer = await fetch(`${idp.url}/_test/accounts/${encodeURIComponent(login)}`, {
      method: 'PUT',
      body: JSON.stringify(claims),
    });
    expect(answer.status).toBe(204);
  };

  /** `GET /auth/oidc/start`: the redirect to the IdP and its parameters. */
  async function start(browser: FetchBrowser, returnUrl = '/list', organization = tenant) {
    const response = await browser.fetch(
      `${server.url}/auth/oidc/start?organization=${organization}&returnUrl=${encodeURIComponent(returnUrl)}`,
    );
    expect(response.status).toBe(302);
    const location = response.headers.get('location') ?? '';
    return { location, params: new URL(location, server.url).searchParams, response };
  }

  /** The callback's answer: where it sends the browser, with `sso`, `returnUrl` or `ssoError`. */
  async function callback(browser: FetchBrowser, url: string) {
    const response = await browser.fetch(url);
    expect(response.status).toBe(302);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith('/login?')).toBe(true);
    const params = new URL(location, server.url).searchParams;
    return {
      code: params.get('sso'),
      returnUrl: params.get('returnUrl'),
      error: params.get('ssoError'),
      response,
    };
  }

  /** `POST /auth/oidc/exchange` as the app sends it from `browser`, with that browser's cookies. */
  async function exchange(browser: FetchBrowser, code: string | null, on = tenant) {
    const response = await browser.fetch(`${server.url}/auth/oidc/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', organization: on },
      body: JSON.stringify({ code }),
    });
    return { status: response.status, body: (await response.json()) as Json, response };
  }

  /** The whole sign-in of `login` in a new browser: start, IdP login, callback (not exchanged). */
  async function signIn(login: string, returnUrl = '/list') {
    const browser = new FetchBrowser();
    const { location } = await start(browser, returnUrl);
    const back = await throughIdp(browser, location, login, `${server.url}/auth/oidc/callback`);
    return { browser, back, ...(await callback(browser, back)) };
  }

  /** A real code and ID token for the other client, by its own authorization code flow. */
  async function otherClientTokens(
    browser: FetchBrowser,
    login: string,
    nonce = randomBytes(8).toString('hex'),
  ) {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = `${idp.url}/auth?${new URLSearchParams({
      client_id: 'other',
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: otherRedirect,
      state: 'other-state',
      nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`;
    const back = await throughIdp(browser, authorize, login, otherRedirect);
    const code = new URL(back).searchParams.get('code') ?? '';
    return {
      code,
      redeem: async () => {
        const answer = await fetch(`${idp.url}/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`other:${otherSecret}`).toString('base64')}`,
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: otherRedirect,
            code_verifier: verifier,
          }).toString(),
        });
        const tokens = (await answer.json()) as Json;
        expect(answer.status, JSON.stringify(tokens)).toBe(200);
        return tokens.id_token as string;
      },
    };
  }

  beforeAll(async () => {
    // The IdP is on loopback: private addresses allowed here, and metadata never kept (issuer changes).
    server = await startApp({ ALLOW_PRIVATE_PROVIDER_URLS: 'true', OIDC_METADATA_TTL_SECONDS: '0' });
    guarded = await startApp();
    idp = await startIdp([
      {
        client_id: 'parley',
        client_secret: parleySecret,
        redirect_uris: [`${server.url}/auth/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: 'other',
        client_secret: otherSecret,
        redirect_uris: [otherRedirect],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ]);
    owner = await loginOwner(server, tenant);
  }, 90_000);
  afterAll(async () => {
    idp?.process.kill();
    await server?.close();
    await guarded?.close();
  });

  it('is owners’ to configure: members and admins get 403, bad settings a 4xx with a message', async () => {
    const someone = await member(server, tenant, 'member');
    const anAdmin = await member(server, tenant, 'admin');
    for (const actor of [someone, anAdmin]) {
      expect((await admin(server, actor, '/sso')).status).toBe(403);
      const put = await putSso(settings(), actor);
      expect([put.status, put.body.code]).toEqual([403, 'FORBIDDEN']);
      const revoke = await admin(server, actor, '/sso/revoke-api-keys', { method: 'POST' });
      expect([revoke.status, revoke.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await call(server, '/api/v1/admin/sso', { tenant })).status).toBe(401);

    const bad: [Json, string | undefined][] = [
      [{ ...settings(), issuer: undefined }, 'issuer'],
      [settings({ issuer: 'not a url' }), 'issuer'],
      [settings({ issuer: 'ftp://idp.example/' }), 'issuer'],
      [settings({ issuer: `${idp.url}/?x=1` }), 'issuer'],
      [settings({ clientId: '' }), 'clientId'],
      [settings({ scopes: ['email'] }), 'scopes'],
      [settings({ scopes: [] }), 'scopes'],
      [settings({ scopes: ['open id'] }), 'scopes'],
      [settings({ claims: { email: '', name: 'name' } }), 'claims'],
      [settings({ claims: { name: 'name' } }), 'email'],
      [settings({ label: '   ' }), 'label'],
      [settings({ required: 'yes' }), 'required'],
      [settings({ extra: 1 }), 'extra'],
      // The IdP answers discovery for 127.0.0.1, not for this spelling of itself.
      [settings({ issuer: idp.url.replace('127.0.0.1', 'localhost') }), 'issuer'],
    ];
    for (const [body, field] of bad) {
      const answer = await putSso(body);
      expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), 400]);
      expect(typeof answer.body.error).toBe('string');
      expect(answer.body.error.length).toBeGreaterThan(5);
      if (field !== 'extra')
        expect([answer.body.error, answer.body.field]).toEqual([answer.body.error, field]);
    }
    expect((await admin(server, owner, '/sso')).body).toBeNull();
    expect((await call(server, `/api/v1/organization/${tenant}`)).body.sso).toBeNull();
  });

  it('keeps the settings with the secret sealed: GET masks it, the audit log never has it', async () => {
    const saved = await putSso(settings());
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      ...settings(),
      clientSecret: `••••${parleySecret.slice(-4)}`,
      memberApiKeys: 0,
    });
    const read = await admin(server, owner, '/sso');
    expect(read.body.clientSecret).toBe(`••••${parleySecret.slice(-4)}`);
    expect(JSON.stringify(read.body)).not.toContain(parleySecret);
    // Left out, the secret stays.
    const relabelled = await putSso({ ...settings({ label: 'Contoso ID' }), clientSecret: undefined });
    expect([relabelled.status, relabelled.body.clientSecret, relabelled.body.label]).toEqual([
      200,
      `••••${parleySecret.slice(-4)}`,
      'Contoso ID',
    ]);
    const stored = await server.app.db.query<{ client_secret: string }>(
      'select client_secret from sso_configs where tenant = $1',
      [tenant],
    );
    expect(stored.rows[0].client_secret).not.toContain(parleySecret);
    const log = await admin(server, owner, '/audit');
    const entries = log.body.items.filter((item: Json) => item.action.startsWith('sso.'));
    expect(entries.map((item: Json) => item.action).slice(0, 2)).toEqual(['sso.update', 'sso.create']);
    expect(JSON.stringify(log.body)).not.toContain(parleySecret);
    expect((await call(server, `/api/v1/organization/${tenant}`)).body.sso).toEqual({ label: 'Contoso ID' });
    expect((await call(server, '/api/v1/organization/app')).body.sso).toBeNull();
    await putSso(settings());
  });

  it('refuses an issuer on a private network without ALLOW_PRIVATE_PROVIDER_URLS (SSRF)', async () => {
    const guardedOwner = await loginOwner(guarded, tenant);
    const port = new URL(idp.url).port;
    for (const issuer of [
      idp.url,
      `http://localhost:${port}`,
      'https://10.0.0.1',
      'https://169.254.169.254',
      `http://[::1]:${port}`,
    ]) {
      const answer = await putSso(settings({ issuer }), guardedOwner, guarded);
      expect([issuer, answer.status, answer.body.code, answer.body.field]).toEqual([
        issuer,
        400,
        'URL_NOT_ALLOWED',
        'issuer',
      ]);
    }
    expect((await admin(guarded, guardedOwner, '/sso')).body).toBeNull();
  });

  it('starts with PKCE S256, state and nonce, bound to the browser by an HttpOnly SameSite=Lax cookie', async () => {
    const browser = new FetchBrowser();
    const { location, params, response } = await start(browser);
    expect(location.startsWith(`${idp.url}/auth?`)).toBe(true);
    expect(params.get('client_id')).toBe('parley');
    expect(params.get('response_type')).toBe('code');
    expect(params.get('redirect_uri')).toBe(`${server.url}/auth/oidc/callback`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')?.length).toBe(43);
    expect(params.get('state')?.length).toBeGreaterThan(20);
    expect(params.get('nonce')?.length).toBeGreaterThan(20);
    expect(params.get('scope')).toBe('openid email profile groups');
    const setCookie = response.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/parley_oidc=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    // Neither the verifier nor the nonce can be read from the cookie: it is sealed.
    expect(decodeURIComponent(browser.cookie('127.0.0.1', 'parley_oidc') ?? '')).not.toContain(
      params.get('nonce') ?? '-',
    );
    // An organization without SSO, or none at all, lands on the login screen with a sentence.
    for (const organization of ['app', 'no-such-org']) {
      const other = await start(new FetchBrowser(), '/list', organization);
      expect(other.location).toMatch(/^\/login\?ssoError=/);
    }
  });

  it('signs a new person in: the member is made just in time with the starting balance and their groups', async () => {
    const unique = uniqueTag();
    // The organization's group mapped to the IdP's "engineering" gets the member at the login.
    const mapped = await server.app.db.query<{ id: string }>(
      `insert into groups (tenant, name, idp_groups) values ($1, $2, '{engineering}') returning id`,
      [tenant, `Engineers ${unique}`],
    );
    const email = `ada${unique}@contoso.test`;
    await account(`ada${unique}`, {
      email,
      email_verified: true,
      name: 'Ada Lovelace',
      groups: ['engineering', 'ops'],
    });
    const { browser, code, returnUrl, error } = await signIn(`ada${unique}`, '/topics/new?bot=eliza');
    expect(error).toBeNull();
    expect(returnUrl).toBe('/topics/new?bot=eliza');
    expect(code?.length).toBeGreaterThan(30);
    const exchanged = await exchange(browser, code);
    expect(exchanged.status).toBe(200);
    const token = exchanged.body.token as string;
    expect((await call(server, '/auth/verify', { tenant, token })).body).toEqual({ verified: 1 });
    const me = await call(server, '/api/v1/user/me', { tenant, token });
    expect([me.body.email, me.body.displayName, me.body.role]).toEqual([email, 'Ada Lovelace', 'member']);
    const billing = await call(server, `/payment/billing-info/${me.body._id}`, { tenant, token });
    const organization = await server.app.db.query<{ starting_balance: string | null }>(
      'select starting_balance from organizations where subdomain = $1',
      [tenant],
    );
    const starting = organization.rows[0].starting_balance ?? String(server.config.startingBalance);
    expect(Number(billing.body.balance)).toBe(Number(starting));
    expect(await readIdpGroups(server.app.db, tenant, me.body._id)).toEqual(['engineering', 'ops']);
    const memberships = await server.app.db.query(
      'select 1 from group_members where group_id = $1 and user_id = $2',
      [mapped.rows[0].id, me.body._id],
    );
    expect(memberships.rows).toHaveLength(1);

    // A hostile return target is not followed.
    const again = await signIn(`ada${unique}`, '/%09/evil.example');
    expect(again.returnUrl).toBe('/list');
  });

  it('keeps only return targets of this site that stay so decoded once more (the app’s rule)', () => {
    for (const url of hostileReturnUrls) expect([url, safeReturnUrl(url)]).toEqual([url, '/list']);
    for (const url of [undefined, 7, ['/topics']]) expect(safeReturnUrl(url)).toBe('/list');
    for (const url of ['/list?from=mail', '/topics/new?bot=eliza', '/admin/bots/b%2F1'])
      expect(safeReturnUrl(url)).toBe(url);
  });

  it('signs the same person in again as the same member, groups updated, no second welcome credit', async () => {
    const unique = uniqueTag();
    await account(`bob${unique}`, {
      email: `bob${unique}@contoso.test`,
      email_verified: true,
      name: 'Bob',
      groups: ['sales'],
    });
    const bob = await signIn(`bob${unique}`);
    const first = await exchange(bob.browser, bob.code);
    const me = await call(server, '/api/v1/user/me', { tenant, token: first.body.token });
    await account(`bob${unique}`, {
      email: `bob${unique}@contoso.test`,
      email_verified: true,
      name: 'Bob',
      groups: [],
    });
    const again = await signIn(`bob${unique}`);
    const second = await exchange(again.browser, again.code);
    const meAgain = await call(server, '/api/v1/user/me', { tenant, token: second.body.token });
    expect(meAgain.body._id).toBe(me.body._id);
    const credits = await server.app.db.query<{ count: string }>(
      'select count(*) from transactions where user_id = $1',
      [me.body._id],
    );
    expect(Number(credits.rows[0].count)).toBe(1);
    expect(await readIdpGroups(server.app.db, tenant, me.body._id)).toEqual([]);
  });

  it('links an existing account only when the IdP verified the address', async () => {
    const existing = await signUp(server, tenant);
    const unique = uniqueTag();
    await account(`unverified${unique}`, { email: existing.email, email_verified: false, name: 'Mallory' });
    const refused = await signIn(`unverified${unique}`);
    expect(refused.code).toBeNull();
    expect(refused.error).toMatch(/has not verified the address/);
    const links = await server.app.db.query('select 1 from user_identities where user_id = $1', [
      existing.id,
    ]);
    expect(links.rows).toHaveLength(0);

    await account(`verified${unique}`, {
      email: existing.email.toUpperCase(),
      email_verified: true,
      name: 'X',
    });
    const linked = await signIn(`verified${unique}`);
    const token = (await exchange(linked.browser, linked.code)).body.token;
    const me = await call(server, '/api/v1/user/me', { tenant, token });
    expect(me.body._id).toBe(existing.id);
    // The account keeps its name and its password.
    expect(me.body.displayName).toBe(existing.displayName);
  });

  it('refuses a replayed state, and a callback opened in a browser that did not start the sign-in', async () => {
    const unique = uniqueTag();
    await account(`carol${unique}`, {
      email: `carol${unique}@contoso.test`,
      email_verified: true,
      name: 'Carol',
    });
    const browser = new FetchBrowser();
    const { location } = await start(browser);
    const back = await throughIdp(browser, location, `carol${unique}`, `${server.url}/auth/oidc/callback`);
    const binding = browser.cookie('127.0.0.1', 'parley_oidc') ?? '';
    expect(binding).not.toBe('');

    // Another browser (no cookie) with the same callback URL.
    const elsewhere = await callback(new FetchBrowser(), back);
    expect(elsewhere.code).toBeNull();
    expect(elsewhere.error).toMatch(/not started in this browser/);

    const first = await callback(browser, back);
    expect(first.error).toBeNull();
    expect(first.code).not.toBeNull();
    // The callback used the cookie up; the same cookie put back does not open it a second time either.
    expect(browser.cookie('127.0.0.1', 'parley_oidc')).toBeUndefined();
    browser.jar.get('127.0.0.1')?.set('parley_oidc', binding);
    const replayed = await callback(browser, back);
    expect(replayed.code).toBeNull();
    expect(replayed.error).toMatch(/used already or has expired/);

    // A state of one sign-in with the cookie of another.
    const second = new FetchBrowser();
    await start(second);
    const mixed = await callback(second, back);
    expect(mixed.error).toMatch(/not started in this browser/);
  });

  it('refuses a code the IdP issued to another client', async () => {
    const unique = uniqueTag();
    await account(`dave${unique}`, {
      email: `dave${unique}@contoso.test`,
      email_verified: true,
      name: 'Dave',
    });
    const browser = new FetchBrowser();
    const { params } = await start(browser);
    const { code } = await otherClientTokens(browser, `dave${unique}`);
    const injected = `${server.url}/auth/oidc/callback?${new URLSearchParams({
      code,
      state: params.get('state') ?? '',
      iss: idp.url,
    })}`;
    const answer = await callback(browser, injected);
    expect(answer.code).toBeNull();
    expect(answer.error).toMatch(/did not accept the sign-in/);
  });

  it('refuses an ID token (genuinely signed by the IdP) issued for another audience', async () => {
    const unique = uniqueTag();
    await account(`erin${unique}`, {
      email: `erin${unique}@contoso.test`,
      email_verified: true,
      name: 'Erin',
    });
    const browser = new FetchBrowser();
    const { location, params } = await start(browser);
    // The same person, the same nonce, but a token for the other client, swapped into Parley's answer.
    const other = await otherClientTokens(browser, `erin${unique}`, params.get('nonce') ?? '');
    const swapped = await other.redeem();
    expect(JSON.parse(Buffer.from(swapped.split('.')[1], 'base64url').toString()).aud).toBe('other');
    await fetch(`${idp.url}/_test/next-id-token`, {
      method: 'PUT',
      body: JSON.stringify({ idToken: swapped }),
    });
    const back = await throughIdp(browser, location, `erin${unique}`, `${server.url}/auth/oidc/callback`);
    const answer = await callback(browser, back);
    expect(answer.code).toBeNull();
    expect(answer.error).toMatch(/ID token could not be accepted \(aud\)/);
    const made = await server.app.db.query('select 1 from users where email = $1', [
      `erin${unique}@contoso.test`,
    ]);
    expect(made.rows).toHaveLength(0);
  });

  it('refuses an IdP that changed its issuer', async () => {
    await fetch(`${idp.url}/_test/discovery-issuer`, {
      method: 'PUT',
      body: JSON.stringify({ issuer: 'https://impostor.example' }),
    });
    try {
      const { location } = await start(new FetchBrowser());
      const error = new URL(location, server.url).searchParams.get('ssoError');
      expect(error).toMatch(/another issuer/);
      const put = await putSso(settings());
      expect([put.status, put.body.code, put.body.field]).toEqual([400, 'ISSUER_MISMATCH', 'issuer']);
    } finally {
      await fetch(`${idp.url}/_test/discovery-issuer`, {
        method: 'PUT',
        body: JSON.stringify({ issuer: null }),
      });
    }
    const { location } = await start(new FetchBrowser());
    expect(location.startsWith(idp.url)).toBe(true);
  });

  it('exchanges a code once, in its own organization, and not after it expired', async () => {
    const unique = uniqueTag();
    await account(`fay${unique}`, { email: `fay${unique}@contoso.test`, email_verified: true, name: 'Fay' });
    const first = await signIn(`fay${unique}`);
    // Another organization does not take it (nor, used up, does its own).
    expect((await exchange(first.browser, first.code, 'app')).status).toBe(400);
    expect((await exchange(first.browser, first.code)).status).toBe(400);
    const second = await signIn(`fay${unique}`);
    expect((await exchange(second.browser, second.code)).status).toBe(200);
    const replay = await exchange(second.browser, second.code);
    expect([replay.status, replay.body.code]).toEqual([400, 'INVALID_CODE']);
    const third = await signIn(`fay${unique}`);
    await server.app.db.query("update oidc_codes set expires_at = now() - interval '1 second'");
    expect((await exchange(third.browser, third.code)).status).toBe(400);
    expect((await exchange(third.browser, 'made-up')).status).toBe(400);
    expect((await call(server, '/auth/oidc/exchange', { tenant, body: {} })).status).toBe(400);
  });

  it('exchanges a code only in the browser it was handed to: sent to someone else, it signs nobody in (login CSRF)', async () => {
    const unique = uniqueTag();
    await account(`gus${unique}`, { email: `gus${unique}@contoso.test`, email_verified: true, name: 'Gus' });
    await account(`hal${unique}`, { email: `hal${unique}@contoso.test`, email_verified: true, name: 'Hal' });
    // The attacker signs in at the IdP and stops at the app's address with the code.
    const attacker = await signIn(`gus${unique}`);
    const handed = attacker.response.headers
      .getSetCookie()
      .find((line) => line.startsWith('parley_oidc_code='));
    expect(handed).toMatch(/; Path=\/auth\/oidc; Max-Age=60; HttpOnly; SameSite=Lax$/);
    // Its victim opens it: a browser without the attacker's cookies, or with their own sign-in's.
    for (const victim of [new FetchBrowser(), (await signIn(`hal${unique}`)).browser]) {
      const refused = await exchange(victim, attacker.code);
      expect([refused.status, refused.body.code]).toEqual([403, 'SSO_OTHER_BROWSER']);
      expect(refused.body.error).toBe(
        'This sign-in was started in another browser. To sign in here, start it again on this login screen.',
      );
      expect(refused.body.token).toBeUndefined();
    }
    // The browser that started it signs in, and the code and its cookie are used up.
    const kept = attacker.browser.cookie('127.0.0.1', 'parley_oidc_code') ?? '';
    const exchanged = await exchange(attacker.browser, attacker.code);
    expect(exchanged.status).toBe(200);
    const me = await call(server, '/api/v1/user/me', { tenant, token: exchanged.body.token });
    expect(me.body.email).toBe(`gus${unique}@contoso.test`);
    expect(attacker.browser.cookie('127.0.0.1', 'parley_oidc_code')).toBeUndefined();
    attacker.browser.jar.get('127.0.0.1')?.set('parley_oidc_code', kept);
    const replay = await exchange(attacker.browser, attacker.code);
    expect([replay.status, replay.body.code]).toEqual([400, 'INVALID_CODE']);
  });

  it('with SSO required refuses members’ passwords (login, signup, reset) and admits the owner’s', async () => {
    const someone = await signUp(server, tenant);
    expect((await putSso(settings({ required: true }))).status).toBe(200);
    try {
      const encrypt = someone.encrypt;
      const refused = await call(server, '/auth/login', {
        tenant,
        body: { email: encrypt(someone.email), password: encrypt(someone.password) },
      });
      expect([refused.status, refused.body.code]).toEqual([403, 'SSO_REQUIRED']);
      expect(refused.body.error).toMatch(/Contoso/);
      // A password reset would be a password login by another door.
      await call(server, '/auth/password/forgot', { tenant, body: { email: encrypt(someone.email) } });
      const resetCode = await readCode(server.dataDir, someone.email);
      const reset = await call(server, '/auth/password/reset', {
        tenant,
        body: { email: encrypt(someone.email), otp: resetCode, password: encrypt('another good password') },
      });
      expect([reset.status, reset.body.code]).toEqual([403, 'SSO_REQUIRED']);
      const otp = await call(server, '/auth/otp', {
        tenant,
        body: { email: encrypt(`new${uniqueTag()}@x.test`) },
      });
      expect([otp.status, otp.body.code]).toEqual([403, 'SSO_REQUIRED']);
      const ownerLogin = await call(server, '/auth/login', {
        tenant,
        body: { email: encrypt(seededOwner.email), password: encrypt(seededOwner.password) },
      });
      expect(ownerLogin.status).toBe(200);
      // Another organization's passwords are untouched.
      const elsewhere = await signUp(server, 'app');
      const appLogin = await call(server, '/auth/login', {
        tenant: 'app',
        body: { email: encrypt(elsewhere.email), password: encrypt(elsewhere.password) },
      });
      expect(appLogin.status).toBe(200);
    } finally {
      expect((await putSso(settings({ required: false }))).status).toBe(200);
    }
  });

  it('turning SSO required on ends members’ and admins’ password sessions, not owners’ nor SSO ones; their API keys are counted and revoked at once', async () => {
    const someone = await signUp(server, tenant);
    const anAdmin = await member(server, tenant, 'admin');
    const ownerNow = await loginOwner(server, tenant);
    const unique = uniqueTag();
    await account(`ivy${unique}`, { email: `ivy${unique}@contoso.test`, email_verified: true, name: 'Ivy' });
    const ivy = await signIn(`ivy${unique}`);
    const viaSso = (await exchange(ivy.browser, ivy.code)).body.token as string;
    const newKey = async (actor: { token: string; encrypt: (value: string) => string }) => {
      const created = await call(server, '/api/v1/user/me/key', {
        tenant,
        token: actor.token,
        body: { name: actor.encrypt('script') },
      });
      expect(created.status).toBe(200);
      return created.body.key as string;
    };
    const models = (key: string) =>
      call(server, '/v1/models', { headers: { authorization: `Bearer ${key}` } });
    const counted = (await admin(server, owner, '/sso')).body.memberApiKeys as number;
    const keys = {
      member: await newKey(someone),
      admin: await newKey(anAdmin),
      owner: await newKey(ownerNow),
    };
    const me = (token: string) => call(server, '/api/v1/user/me', { tenant, token });
    // Every session is in use (and so known to this node) when SSO becomes required.
    for (const token of [someone.token, anAdmin.token, ownerNow.token, viaSso])
      expect((await me(token)).status).toBe(200);

    const required = await putSso(settings({ required: true }));
    try {
      expect(required.status).toBe(200);
      expect(required.body.memberApiKeys).toBe(counted + 2);
      for (const token of [someone.token, anAdmin.token]) {
        expect((await me(token)).status).toBe(401);
        expect((await call(server, '/auth/verify', { tenant, token })).body).toEqual({ verified: 0 });
      }
      expect((await me(ownerNow.token)).status).toBe(200);
      expect((await me(viaSso)).status).toBe(200);
      const log = await admin(server, owner, '/audit');
      expect(log.body.items[0]).toMatchObject({ action: 'sso.endSessions' });
      expect(log.body.items[0].after.passwordSessions).toBeGreaterThanOrEqual(2);

      // Keys are the admin's to revoke: they still work until then.
      for (const key of Object.values(keys)) expect((await models(key)).status).toBe(200);
      expect((await admin(server, anAdmin, '/sso/revoke-api-keys', { method: 'POST' })).status).toBe(401);
      const revoked = await admin(server, owner, '/sso/revoke-api-keys', { method: 'POST' });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ revoked: counted + 2 });
      expect((await models(keys.member)).status).toBe(401);
      expect((await models(keys.admin)).status).toBe(401);
      expect((await models(keys.owner)).status).toBe(200);
      expect((await admin(server, owner, '/sso')).body.memberApiKeys).toBe(0);
      const audited = (await admin(server, owner, '/audit')).body.items[0];
      expect(audited).toMatchObject({ action: 'sso.revokeApiKeys', after: { revoked: counted + 2 } });
    } finally {
      expect((await putSso(settings({ required: false }))).status).toBe(200);
    }
  });

  it('turns SSO off with null', async () => {
    expect((await putSso(null)).status).toBe(200);
    expect((await admin(server, owner, '/sso')).body).toBeNull();
    expect((await call(server, `/api/v1/organization/${tenant}`)).body.sso).toBeNull();
    const { location } = await start(new FetchBrowser());
    expect(location).toMatch(/^\/login\?ssoError=/);
    expect((await putSso(settings())).status).toBe(200);
  });
});
