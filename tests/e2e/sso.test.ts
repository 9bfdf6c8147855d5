import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { member as invitedMember } from '../server/admin/support';
import { call, type TestServer } from '../support/app';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { type Idp, startIdp } from '../support/idpProcess';
import { type RunningServer, startServer } from '../support/server';

const owner = { email: 'admin@parley.test', password: 'parley-admin-1' };
const secret = 'e2e-client-secret-0123456789';

describe('company sign-in (OpenID Connect): an owner sets it up, members sign in at the real IdP, in Chromium', () => {
  let server: RunningServer;
  let idp: Idp;
  let browser: Browser;
  /**
   * Acme's address (Chromium resolves every *.localhost name to loopback): the `app` organization of a
   * bare address is never fetched, so its login screen has no organization settings to show a button for.
   */
  let acme: string;

  beforeAll(async () => {
    // The IdP listens on loopback: private provider addresses are allowed for this test only.
    server = await startServer({ ALLOW_PRIVATE_PROVIDER_URLS: 'true', OIDC_METADATA_TTL_SECONDS: '0' });
    acme = `http://acme.parley.localhost:${server.port}`;
    [idp, browser] = await Promise.all([
      startIdp([
        {
          client_id: 'parley',
          client_secret: secret,
          redirect_uris: [`${acme}/auth/oidc/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ]),
      launchBrowser(),
    ]);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    idp?.stop();
    await server?.stop();
  });

  const newPage = async () =>
    (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })).newPage();
  const logIn = async (page: Page, email: string, password: string) => {
    await page.goto(`${acme}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  };
  /**
   * Continue with Contoso on the login screen (or the sign-in's own address, `start`), then the IdP's own
   * login form (and consent) as `login`.
   */
  const signInAtIdp = async (page: Page, login: string, start?: string) => {
    if (start) await page.goto(start);
    else {
      await page.goto(`${acme}/login`);
      await page.getByRole('link', { name: 'Continue with Contoso' }).click();
    }
    // oidc-provider's own (development) login page, on the IdP's origin.
    await page.waitForURL((url) => url.origin === idp.url);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    // A consent page, if the IdP asks for one.
    await page.waitForURL((url) => url.origin === acme || url.pathname.includes('/interaction/'));
    if (new URL(page.url()).origin === idp.url) await page.locator('button[type="submit"]').click();
  };
  /** The owner's Sign-in screen of the admin area, reached through its navigation. */
  const signInSettings = async () => {
    const page = await newPage();
    await logIn(page, owner.email, owner.password);
    await page.waitForURL((url) => url.pathname === '/list');
    await page.goto(`${acme}/admin`);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Sign-in' }).click();
    await page.getByRole('heading', { name: 'Sign-in', level: 1 }).waitFor();
    return page;
  };

  it('is set up by an owner on the Sign-in screen: a wrong issuer is refused at its field, the secret is never shown again', async () => {
    const page = await signInSettings();
    const main = page.getByRole('main');
    // Nothing filled in: every required field says so in place.
    await main.getByLabel('Issuer URL').fill('');
    await main.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => main.getByLabel('Issuer URL').getAttribute('aria-invalid')).toBe('true');
    // An address that answers no OpenID Connect discovery: the server's sentence, at the issuer.
    await main.getByLabel('Issuer URL').fill('http://127.0.0.1:9');
    await main.getByLabel('Client ID').fill('parley');
    await main.getByLabel('Client secret').fill(secret);
    await main.getByLabel('Scopes').fill('openid email profile');
    await main.getByLabel('Button label').fill('Contoso');
    await main.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => main.getByLabel('Issuer URL').getAttribute('aria-invalid'), { timeout: 20_000 })
      .toBe('true');
    const issuerProblem = await main.locator('.field-error').first().textContent();
    expect(issuerProblem?.length).toBeGreaterThan(10);

    await main.getByLabel('Issuer URL').fill(idp.url);
    await main.getByRole('button', { name: 'Save' }).click();
    await main.getByRole('status').filter({ hasText: 'Saved' }).waitFor({ timeout: 20_000 });
    // Write-only: the field is empty again, its placeholder shows that a secret is stored.
    expect(await main.getByLabel('Client secret').inputValue()).toBe('');
    expect(await main.getByLabel('Client secret').getAttribute('placeholder')).toBe(
      `••••${secret.slice(-4)}`,
    );
    expect(await page.content()).not.toContain(secret);
    await page.context().close();
  });

  it('signs a new member in at the real IdP, from a link whose returnUrl leads away: back on /list by name', async () => {
    await idp.account('grace', { email: 'grace@contoso.test', email_verified: true, name: 'Grace Hopper' });
    const page = await newPage();
    // Where the page went, or tried to go (a navigation the browser refuses is an error on the page).
    const elsewhere: string[] = [];
    page.on('pageerror', (error) => elsewhere.push(error.message));
    page.on('request', (request) => {
      const away = ![acme, idp.url].includes(new URL(request.url()).origin);
      if (away && request.isNavigationRequest()) elsewhere.push(request.url());
    });
    // Decoded once more than it should be, `/%09/evil.example` would be `//evil.example`.
    await signInAtIdp(
      page,
      'grace',
      `${acme}/auth/oidc/start?organization=acme&returnUrl=%2F%2509%2Fevil.example`,
    );
    await page.waitForURL((url) => url.origin === acme && url.pathname === '/list', {
      timeout: 20_000,
    });
    await page.getByRole('heading', { name: 'Hello, Grace Hopper', level: 1 }).waitFor();
    // The single-use code is out of the address bar and the history.
    expect(page.url()).not.toContain('sso=');
    expect(elsewhere).toEqual([]);
    await page.context().close();
  });

  it('refuses a sign-in code opened in another browser (login CSRF); the browser that started the sign-in signs in with it', async () => {
    await idp.account('mallory', { email: 'mallory@contoso.test', email_verified: true, name: 'Mallory' });
    const started = await newPage();
    // As an attacker would: stopped at the address the sign-in comes back to, to send it to someone.
    // (The IdP's redirect back cannot be stopped, so the exchange the app then asks for is.)
    let handed = '';
    started.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/login' && url.searchParams.has('sso')) handed = url.href;
    });
    const exchange = `${acme}/auth/oidc/exchange`;
    await started.route(exchange, (route) => route.abort());
    await signInAtIdp(started, 'mallory');
    await expect.poll(() => handed, { timeout: 20_000 }).not.toBe('');

    const victim = await newPage();
    await victim.goto(handed);
    const alert = victim.getByRole('alertdialog', { name: 'Error' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'This sign-in was started in another browser. To sign in here, start it again on this login screen.',
    );
    expect(new URL(victim.url()).pathname).toBe('/login');
    expect(await victim.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await victim.context().close();

    // The code was kept for its own browser, which signs in with it.
    await started.unroute(exchange);
    await started.goto(handed);
    await started.waitForURL((url) => url.pathname === '/list', { timeout: 20_000 });
    await started.getByRole('heading', { name: 'Hello, Mallory', level: 1 }).waitFor();
    await started.context().close();
  });

  it('with SSO required, refuses a member’s password login with the reason on the login screen; the owner keeps theirs', async () => {
    const api = server as unknown as TestServer;
    const member = await invitedMember(api, 'acme');
    const key = await call(api, '/api/v1/user/me/key', {
      tenant: 'acme',
      token: member.token,
      body: { name: member.encrypt('script') },
    });
    const models = () => call(api, '/v1/models', { headers: { authorization: `Bearer ${key.body.key}` } });
    expect((await models()).status).toBe(200);
    const settings = await signInSettings();
    const main = settings.getByRole('main');
    await main.getByLabel('SSO required').check();
    await main.getByRole('button', { name: 'Save' }).click();
    await main.getByRole('status').filter({ hasText: 'Saved' }).waitFor({ timeout: 20_000 });
    // The member's password session has ended; their API key is counted, and revoked on request.
    expect((await call(api, '/api/v1/user/me', { tenant: 'acme', token: member.token })).status).toBe(401);
    const keys = main.getByRole('region', { name: "Members' API keys" });
    expect(await keys.textContent()).toContain('API keys of members and admins that still work: 1');
    const revokeAll = keys.getByRole('button', { name: "Revoke all members' API keys" });
    // On a phone too, the button stays inside its section (its words wrap).
    await settings.setViewportSize({ width: 320, height: 800 });
    const [section, button] = [await keys.boundingBox(), await revokeAll.boundingBox()];
    expect((button?.x ?? 0) + (button?.width ?? 0)).toBeLessThanOrEqual(
      (section?.x ?? 0) + (section?.width ?? 0),
    );
    await settings.setViewportSize({ width: 1280, height: 900 });
    await revokeAll.click();
    const confirm = settings.getByRole('alertdialog', { name: "Revoke all members' API keys" });
    expect(blocking(await runAxe(settings, noViolations())), 'axe: revoke the keys').toEqual([]);
    await confirm.getByRole('button', { name: "Revoke all members' API keys" }).click();
    await keys.getByRole('status').filter({ hasText: 'Their API keys are revoked.' }).waitFor();
    expect(await keys.textContent()).toContain('API keys of members and admins that still work: 0');
    expect(await keys.getByRole('button').count()).toBe(0);
    expect((await models()).status).toBe(401);
    await settings.context().close();

    const page = await newPage();
    await logIn(page, member.email, member.password);
    const alert = page.getByRole('alertdialog', { name: 'Error' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'This organization signs in through its identity provider: use “Contoso” on the login screen.',
    );
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();

    // Owners keep their password (and can turn SSO off again).
    const again = await signInSettings();
    const form = again.getByRole('main');
    await form.getByRole('button', { name: 'Turn off SSO' }).click();
    await again
      .getByRole('alertdialog', { name: 'Turn off SSO' })
      .getByRole('button', { name: 'Turn off SSO' })
      .click();
    await form.getByRole('status').filter({ hasText: 'SSO is off.' }).waitFor({ timeout: 20_000 });
    expect(await form.getByLabel('Issuer URL').inputValue()).toBe('');
    await again.goto(`${acme}/login`);
    await again.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await again.getByRole('link', { name: /^Continue with/ }).count()).toBe(0);
    await again.context().close();
  });
});
