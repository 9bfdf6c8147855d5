import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { type AnyMachineSnapshot, type AnyStateMachine, getInitialSnapshot, getNextSnapshot } from 'xstate';
import { sessionMachine } from '../../../../machines/session';
import { call, signUp, type TestServer } from '../../../support/app';
import { type Idp, ssoCode, startIdp } from '../../../support/idpProcess';
import { readCode } from '../../../support/outbox';
import { type ActorRequest, type ModelEvent, type ModelPath, type PathWorld, until } from '../runner';

type Account = Awaited<ReturnType<typeof signUp>>;

const done = (id: string, output?: unknown): ModelEvent => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string): ModelEvent => ({
  type: `xstate.error.actor.${id}`,
  error: new Error(`${id} failed`),
});
const badEmail = 'not an email';
const signup = (email: string): ModelEvent => ({
  type: 'SIGNUP',
  username: 'newcomer',
  displayName: 'Newcomer',
  email,
  password: 'a long password',
  otp: '123456',
});
const networkMessage = 'Cannot reach the server. Check your connection and try again.';

/** The server the runner spawned, as the API helpers of tests/support/app take it. */
export const apiOf = (world: PathWorld) => world.server as unknown as TestServer;

/** The machine's states along the path, from its pure definition: `[0]` before the first step. */
export function statesAlong(
  machine: AnyStateMachine,
  input: unknown,
  world: PathWorld,
): AnyMachineSnapshot[] {
  if (!world.data.states) {
    const states = [getInitialSnapshot(machine, input as never) as AnyMachineSnapshot];
    for (const event of world.events)
      states.push(getNextSnapshot(machine, states.at(-1) as never, event as never));
    world.data.states = states;
  }
  return world.data.states as AnyMachineSnapshot[];
}

/** Call first in `perform`: the step the path is at, for `ownState`. */
const stepTaken = (world: PathWorld, index: number) => {
  world.data.step = index + 1;
};

/**
 * The path's own state now, context included. The graph keeps one snapshot per state identity,
 * whichever way it came (another path's context, even its other regions): checks read this one.
 */
const ownState = (machine: AnyStateMachine, input: unknown, world: PathWorld) =>
  statesAlong(machine, input, world)[(world.data.step as number | undefined) ?? 0];

/** A token of the account, from the login API: what a browser that logged in earlier has stored. */
export async function tokenOf(world: PathWorld, account: Account): Promise<string> {
  const answer = await call(apiOf(world), '/auth/login', {
    body: { email: account.encrypt(account.email), password: account.encrypt(account.password) },
  });
  if (answer.status !== 200) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return answer.body.token as string;
}

/** Starts the browser with this token stored, as a returning visitor has it (once: reloads keep their own). */
export async function storeToken(world: PathWorld, token: string) {
  await world.context.addInitScript((stored) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', 'yes');
    localStorage.setItem('token', stored);
  }, token);
}

/** The Profile view of the side panel, opened from its header button unless it is open already. */
export async function openProfile({ page }: PathWorld) {
  const button = page
    .getByRole('navigation', { name: 'Side panel' })
    .getByRole('button', { name: /^Profile/ });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  const panel = page.getByRole('complementary');
  await panel.getByRole('heading', { name: 'Edit profile' }).waitFor();
  return panel;
}

let counter = 0;
/** A name and an address nobody has used yet. */
const unique = () => {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return { username: `new${id}`, displayName: `Newcomer ${id}`, email: `new${id}@example.org` };
};

const authOf = (snapshot: AnyMachineSnapshot) => (snapshot.value as { auth: string }).auth;
const codeOf = (snapshot: AnyMachineSnapshot) => (snapshot.value as { oneTimeCode: string }).oneTimeCode;
/** The outcome the path gives an actor's next request after step `index`: 'done', 'error' or none. */
const nextOutcome = (world: PathWorld, index: number, actor: string) =>
  /^xstate\.(done|error)\./.exec(
    world.events.slice(index + 1).find((event) => event.type.endsWith(`.actor.${actor}`))?.type ?? '',
  )?.[1];

/** Where the user is: the route the model says the app shows now (path and query). */
interface Place {
  path: string;
  search: string;
}
const placeOf = (world: PathWorld) => world.data.at as Place;
const setPlace = (world: PathWorld, path: string, search = '') => {
  // A field the server refused says so until its form is left.
  if (path !== '/register') world.data.fieldError = null;
  world.data.at = { path, search };
};
/** The login check sends a logged-out visitor to landing, keeping where they were going. */
const landingWithReturn = '?returnUrl=%2Flist';

/** Shown on the page now (no waiting: the runner retries the whole check). */
const shown = async (locator: Locator) => expect(await locator.isVisible()).toBe(true);

const main = ({ page }: PathWorld) => page.getByRole('main');
const link = (world: PathWorld, name: string) => main(world).getByRole('link', { name, exact: true });

/** Moves between the logged-out screens as a person does: by their links (no reload). */
async function goTo(world: PathWorld, path: '/list' | '/login' | '/register' | '/forgot') {
  const { page } = world;
  const here = placeOf(world);
  if (here.path === path) return;
  if (path === '/list')
    await page.getByRole('banner').getByRole('link', { name: 'Parley', exact: true }).click();
  else if (path === '/login') await link(world, 'Log in').click();
  else if (path === '/register') {
    if (here.path !== '/landing' && here.path !== '/login') await goTo(world, '/login');
    await link(world, placeOf(world).path === '/landing' ? 'Register' : 'Create an account').click();
  } else {
    await goTo(world, '/login');
    await link(world, 'Forgot password?').click();
  }
  // A logged-out visitor's login check sends them straight back to landing: the step says where.
  if (path === '/list') return;
  await page.waitForURL((url) => url.pathname === path);
  // The links keep the query (returnUrl) from landing on.
  setPlace(world, path, new URL(page.url()).search);
}

/** The Error alert the last step raised is acknowledged before the next thing a person does. */
async function acknowledge(world: PathWorld) {
  if (!world.data.alert) return;
  const alert = world.page.getByRole('alertdialog', { name: 'Error' });
  await alert.getByRole('button', { name: 'OK' }).click();
  await alert.waitFor({ state: 'detached' });
  world.data.alert = null;
}

/** The token this browser has stored. */
const storedToken = ({ page }: PathWorld) => page.evaluate(() => localStorage.getItem('token'));

/** Revokes the browser's token on the server, as another device's "log out" or an expiry would. */
async function revokeStoredToken(world: PathWorld) {
  const token = await storedToken(world);
  const answer = await call(apiOf(world), '/auth/logout', { method: 'POST', token: token ?? '' });
  expect(answer.status).toBe(200);
}

/**
 * Logged-in users who come back to /login or /register (here: Back to landing, then its links) are
 * sent on to /list: the session ignores LOGIN and SIGNUP once logged in.
 */
async function expectLoginAndRegisterSendOn(world: PathWorld) {
  const { page } = world;
  const user = world.data.user as Account;
  for (const name of ['Log in', 'Register']) {
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/landing');
    await link(world, name).click();
    await page.waitForURL((url) => url.pathname === '/list');
    await page.getByRole('heading', { name: `Hello, ${user.displayName}`, level: 1 }).waitFor();
  }
}

const requests: Record<string, ActorRequest> = {
  verifyToken: { method: 'GET', path: /^\/auth\/verify$/ },
  loadUser: { method: 'GET', path: /^\/api\/v1\/user\/me$/ },
  // A wrong password, a wrong code: refusals the server gives what was typed.
  login: { method: 'POST', path: /^\/auth\/login$/, fails: 'server' },
  signup: { method: 'POST', path: /^\/auth\/signup$/, fails: 'server' },
  requestOtp: { method: 'POST', path: /^\/auth\/otp$/ },
  logout: { method: 'POST', path: /^\/auth\/logout$/ },
  // A code used already: a refusal the server gives what the page was handed.
  exchangeSsoCode: { method: 'POST', path: /^\/auth\/oidc\/exchange$/, fails: 'server' },
};

const usedCodeMessage = 'This sign-in code is wrong, used already or expired. Sign in again.';

/**
 * The test identity provider (tests/support/idp.mjs) and the `app` organization signing in with it,
 * set up once for every path: the login screens show "Continue with Contoso" on all of them.
 */
async function ssoFor(world: PathWorld): Promise<Idp> {
  if (world.shared.idp) return world.shared.idp as Idp;
  const secret = 'parley-model-secret-0123456789';
  const idp = await startIdp([
    {
      client_id: 'parley',
      client_secret: secret,
      redirect_uris: [`${world.server.url}/auth/oidc/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ]);
  world.shared.idp = idp;
  const owner = await call(apiOf(world), '/auth/login', {
    body: {
      email: (world.shared.account as Account).encrypt('admin@parley.test'),
      password: (world.shared.account as Account).encrypt('parley-admin-1'),
    },
  });
  if (owner.status !== 200) throw new Error(`owner login failed: ${JSON.stringify(owner.body)}`);
  const saved = await call(apiOf(world), '/api/v1/admin/sso', {
    method: 'PUT',
    token: owner.body.token,
    body: {
      issuer: idp.url,
      clientId: 'parley',
      clientSecret: secret,
      scopes: ['openid', 'email', 'profile'],
      claims: { email: 'email', name: 'name' },
      label: 'Contoso',
      required: false,
    },
  });
  if (saved.status !== 200) throw new Error(`SSO settings refused: ${JSON.stringify(saved.body)}`);
  return idp;
}

const input = { token: 'stored-token', user: null };

/**
 * What a walk can be: its start stores one token, valid or revoked, so the login check answers one
 * way; an account made at the identity provider has no password to log in or change with.
 */
function oneStoredTokenNoPasswordAfterSso(path: ModelPath) {
  const events = path.steps.slice(1).map((step) => step.event);
  const verified = new Set(
    events
      .filter((event) => event.type === 'xstate.done.actor.verifyToken')
      .map((event) => (event.output as { verified: number }).verified),
  );
  const sso = events.findIndex((event) => event.type === 'xstate.done.actor.exchangeSsoCode');
  return (
    verified.size <= 1 &&
    (sso < 0 || !events.slice(sso).some((event) => ['LOGIN', 'TOKEN_RENEWED'].includes(event.type)))
  );
}

/**
 * The session, driven through the logged-out screens, the login check of /list and the Profile view,
 * against the real server. Every path starts as a returning visitor with a stored token: valid where
 * the path's login check passes, revoked where it fails.
 */
export const sessionBrowserModel = {
  name: 'session',
  machine: sessionMachine,
  input,
  events: [
    { type: 'CHECK', returnUrl: '/list' },
    done('verifyToken', { verified: 1 }),
    done('verifyToken', { verified: 0 }),
    failed('verifyToken'),
    done('loadUser', { _id: 'u1', displayName: 'User', username: 'user' }),
    failed('loadUser'),
    { type: 'LOGIN', email: 'user@example.org', password: 'a long password' },
    done('login', 'new-token'),
    failed('login'),
    signup('new@example.org'),
    signup(badEmail),
    done('signup', 'new-token'),
    failed('signup'),
    { type: 'REQUEST_OTP', email: 'new@example.org' },
    { type: 'REQUEST_OTP', email: badEmail },
    done('requestOtp', { sent: true }),
    failed('requestOtp'),
    { type: 'LOGOUT' },
    done('logout'),
    failed('logout'),
    { type: 'xstate.after.logoutTimeout.session.auth.loggingOut' },
    { type: 'TOKEN_RENEWED', token: 'renewed-token' },
    { type: 'SIGNED_OUT' },
    { type: 'USER_UPDATED', user: { _id: 'u1', displayName: 'Renamed', username: 'user' } },
    { type: 'UNAUTHORIZED', method: 'GET' },
    { type: 'UNAUTHORIZED', method: 'PATCH' },
    { type: 'SIGNED_IN', token: 'reset-token' },
    { type: 'SSO_CODE', code: 'sso-code', returnUrl: '/list' },
    done('exchangeSsoCode', 'sso-token'),
    failed('exchangeSsoCode'),
  ],
  possible: (snapshot: AnyMachineSnapshot, event: ModelEvent) => {
    const auth = authOf(snapshot);
    switch (event.type) {
      // A 401 answers a call that only a logged-in screen makes.
      case 'UNAUTHORIZED':
        return auth === 'loggedIn';
      // The reset of /forgot, from landing (also possible from `unverified`: the same transition).
      case 'SIGNED_IN':
        return auth === 'loggedOut';
      // The register screen: on the way in, or while a login or signup of its own is under way.
      case 'REQUEST_OTP':
        return ['loggedOut', 'unverified', 'signingUp', 'loggingIn'].includes(auth);
      // Back from the identity provider: a page loaded afresh, logged out or with a stored token, and
      // no code of the register screen under way (a new page has none).
      case 'SSO_CODE':
        return ['loggedOut', 'unverified'].includes(auth) && codeOf(snapshot) === 'idle';
      default:
        return true;
    }
  },
  requests,
  allows: oneStoredTokenNoPasswordAfterSso,
  chainWalks: true,
  server: {
    RATE_LIMIT_LOGIN_FAILURES: '1000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    // The test identity provider is on loopback.
    ALLOW_PRIVATE_PROVIDER_URLS: 'true',
  },
  finish: async (shared: Record<string, unknown>) => {
    (shared.idp as Idp | undefined)?.stop();
  },
  start: async (world: PathWorld) => {
    const { events, page, server } = world;
    world.shared.account ??= await signUp(apiOf(world));
    await ssoFor(world);
    // Paths that change the account (its password, its name) have one of their own.
    const own = events.some((event) => ['TOKEN_RENEWED', 'USER_UPDATED', 'SIGNED_IN'].includes(event.type));
    const account = own ? await signUp(apiOf(world)) : (world.shared.account as Account);
    world.data.user = { ...account };
    const verified = events.find((event) => event.type === 'xstate.done.actor.verifyToken') as
      | { output: { verified: number } }
      | undefined;
    let token: string;
    if (verified?.output.verified === 1) token = own ? account.token : await tokenOf(world, account);
    else {
      if (!world.shared.revoked) {
        const revoked = await tokenOf(world, world.shared.account as Account);
        await call(apiOf(world), '/auth/logout', { method: 'POST', token: revoked });
        world.shared.revoked = revoked;
      }
      token = world.shared.revoked as string;
    }
    await storeToken(world, token);
    await page.goto(`${server.url}/landing`);
    setPlace(world, '/landing');
    world.data.alert = null;
  },
  perform: async (world: PathWorld, event: ModelEvent, index: number) => {
    const { page } = world;
    const before = ownState(sessionMachine, input, world);
    stepTaken(world, index);
    const user = world.data.user as Account;
    if (!event.type.startsWith('xstate.')) await acknowledge(world);
    switch (event.type) {
      case 'CHECK':
        await goTo(world, '/list');
        if (authOf(before) === 'loggedOut') setPlace(world, '/landing', landingWithReturn);
        else setPlace(world, '/list');
        break;
      case 'xstate.done.actor.verifyToken':
        if ((event.output as { verified: number }).verified !== 1)
          setPlace(world, '/landing', landingWithReturn);
        break;
      case 'xstate.error.actor.verifyToken':
      case 'xstate.error.actor.loadUser':
        setPlace(world, '/landing', landingWithReturn);
        break;
      case 'xstate.done.actor.loadUser':
        if (index === world.events.length - 1 && world.events[0].type === 'CHECK')
          await expectLoginAndRegisterSendOn(world);
        break;
      case 'LOGIN': {
        await goTo(world, '/login');
        await main(world).getByLabel('Email').fill(user.email);
        const wrong = nextOutcome(world, index, 'login') === 'error';
        await main(world)
          .getByLabel('Password', { exact: true })
          .fill(wrong ? 'not the password' : user.password);
        await main(world).getByRole('button', { name: 'Log in' }).click();
        break;
      }
      case 'xstate.done.actor.login':
      case 'xstate.done.actor.signup':
        setPlace(world, '/list');
        break;
      case 'xstate.error.actor.login':
        world.data.alert = 'Invalid email or password';
        break;
      case 'SIGNUP': {
        await goTo(world, '/register');
        const fields = unique();
        const email = event.email === badEmail ? badEmail : fields.email;
        let otp = '000000';
        // (A bad address is refused on the page: the outcome that follows is a later signup's.)
        if (email !== badEmail && nextOutcome(world, index, 'signup') === 'done') {
          const answer = await call(apiOf(world), '/auth/otp', { body: { email: user.encrypt(email) } });
          expect(answer.status).toBe(200);
          otp = await readCode(world.server.dataDir, email);
          world.data.user = { ...user, ...fields, password: 'a long password' };
        }
        const form = main(world);
        await form.getByLabel('Username').fill(fields.username);
        await form.getByLabel('Display name').fill(fields.displayName);
        await form.getByLabel('Email').fill(email);
        await form.getByLabel('Password').fill('a long password');
        await form.getByLabel('One-time code').fill(otp);
        await form.getByRole('button', { name: 'Create account' }).click();
        world.data.fieldError = null;
        if (email === badEmail) world.data.alert = 'Invalid email address';
        break;
      }
      case 'xstate.error.actor.signup':
        world.data.alert = 'The code is wrong or has expired. Ask for a new one.';
        world.data.fieldError = 'One-time code';
        break;
      case 'REQUEST_OTP': {
        await goTo(world, '/register');
        const email = event.email === badEmail ? badEmail : unique().email;
        await main(world).getByLabel('Email').fill(email);
        await main(world).getByRole('button', { name: 'Send code' }).click();
        if (email === badEmail) world.data.alert = 'Invalid email address';
        break;
      }
      case 'xstate.error.actor.requestOtp':
        world.data.alert = networkMessage;
        break;
      case 'LOGOUT': {
        const panel = await openProfile(world);
        await panel.getByRole('button', { name: 'Log out', exact: true }).click();
        break;
      }
      case 'xstate.done.actor.logout':
      case 'xstate.error.actor.logout':
      case 'xstate.after.logoutTimeout.session.auth.loggingOut':
        setPlace(world, '/landing');
        break;
      case 'TOKEN_RENEWED': {
        const panel = await openProfile(world);
        world.data.renewedFrom = await storedToken(world);
        await panel.getByLabel('Current password').fill(user.password);
        await panel.getByLabel('New password').fill('another long password');
        await panel.getByRole('button', { name: 'Change password' }).click();
        world.data.user = { ...user, password: 'another long password' };
        break;
      }
      case 'SIGNED_OUT': {
        const panel = await openProfile(world);
        await panel.getByRole('button', { name: 'Log out everywhere' }).click();
        setPlace(world, '/landing');
        break;
      }
      case 'USER_UPDATED': {
        const panel = await openProfile(world);
        const displayName = `${user.displayName} Renamed`;
        await panel.getByLabel('Display name').fill(displayName);
        await panel
          .getByRole('region', { name: 'Edit profile' })
          .getByRole('button', { name: 'Save' })
          .click();
        world.data.user = { ...user, displayName };
        world.data.saved = true;
        break;
      }
      case 'UNAUTHORIZED':
        if (event.method === 'GET') {
          await revokeStoredToken(world);
          // Opening the notifications reads them afresh; a request of the home screen still under way
          // may meet the 401 first, and the button goes with the screen.
          const bell = page
            .getByRole('navigation', { name: 'Side panel' })
            .getByRole('button', { name: /^Notifications/ });
          await until(async () => {
            if (new URL(page.url()).pathname !== '/landing') await bell.click({ timeout: 1_000 });
          });
          setPlace(world, '/landing');
        } else {
          const panel = await openProfile(world);
          await panel.getByLabel('Display name').fill(`${user.displayName} Again`);
          // The token is revoked as the save leaves the page, not before: the profile's sections load
          // on opening, and one of their reads still under way would meet the 401 first (a GET: landing).
          const save = (url: URL) => url.pathname.startsWith('/api/v1/user/');
          await page.route(save, async (route) => {
            if (route.request().method() === 'PATCH') await revokeStoredToken(world);
            await route.fallback();
          });
          await panel
            .getByRole('region', { name: 'Edit profile' })
            .getByRole('button', { name: 'Save' })
            .click();
          await page.waitForURL((url) => url.pathname === '/welcome');
          await page.unroute(save);
          setPlace(world, '/welcome');
        }
        break;
      case 'SSO_CODE': {
        // Back from the identity provider: its login done (by fetch), the page opened at the address
        // the callback sends the browser to. A code used already is refused by the server.
        const idp = world.shared.idp as Idp;
        const fields = unique();
        await idp.account(fields.username, {
          email: fields.email,
          email_verified: true,
          name: fields.displayName,
        });
        // The sign-in was started in this browser: the cookie binding the code to it is the page's.
        const { code, cookie } = await ssoCode(world.server.url, fields.username);
        const { hostname } = new URL(world.server.url);
        await page
          .context()
          .addCookies([{ ...cookie, domain: hostname, path: '/auth/oidc', httpOnly: true, sameSite: 'Lax' }]);
        if (nextOutcome(world, index, 'exchangeSsoCode') === 'error') {
          const used = await call(apiOf(world), '/auth/oidc/exchange', {
            body: { code },
            headers: { cookie: `${cookie.name}=${cookie.value}` },
          });
          expect(used.status).toBe(200);
        }
        world.data.user = { ...user, ...fields };
        await page.goto(`${world.server.url}/login?sso=${code}&returnUrl=%2Flist`);
        // The login screen takes the code out of the address at once.
        setPlace(world, '/login');
        break;
      }
      case 'xstate.done.actor.exchangeSsoCode':
        setPlace(world, '/list');
        break;
      case 'xstate.error.actor.exchangeSsoCode':
        world.data.alert = usedCodeMessage;
        break;
      case 'SIGNED_IN': {
        await goTo(world, '/forgot');
        await main(world).getByLabel('Email').fill(user.email);
        await main(world).getByRole('button', { name: 'Send code' }).click();
        await page.getByRole('status').filter({ hasText: 'we emailed it a 6-digit code' }).waitFor();
        await main(world)
          .getByLabel('One-time code')
          .fill(await readCode(world.server.dataDir, user.email));
        await main(world).getByLabel('New password').fill('a reset long password');
        await main(world).getByRole('button', { name: 'Set new password' }).click();
        world.data.user = { ...user, password: 'a reset long password' };
        setPlace(world, '/list');
        break;
      }
    }
  },
  // The runner hands in the path's own snapshot (replayed from its events), context included.
  expectScreen: async (world: PathWorld, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    const auth = authOf(snapshot);
    const user = world.data.user as Account;
    const place = placeOf(world);
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).toBe(`${place.path}${place.search}`);
    // The stored token is the session's: none once logged out (signup and login store theirs when done).
    expect((await storedToken(world)) !== null).toBe(snapshot.context.token !== null);
    const alert = page.getByRole('alertdialog', { name: 'Error' });
    if (world.data.alert) expect(await alert.textContent()).toContain(world.data.alert);
    else expect(await alert.count()).toBe(0);
    const busy = snapshot.hasTag('busy');

    if (auth === 'verifying' || auth === 'loadingUser') {
      // The login check waits for the server: nothing of /list yet.
      await shown(page.getByRole('status').filter({ hasText: 'Loading…' }));
      expect(await page.getByRole('heading', { name: /^Hello/ }).count()).toBe(0);
      return;
    }
    if (auth === 'loggedIn' || auth === 'loggingOut') {
      await shown(page.getByRole('heading', { name: `Hello, ${user.displayName}`, level: 1 }));
      if (auth === 'loggingOut')
        expect(await page.getByRole('button', { name: 'Log out', exact: true }).isDisabled()).toBe(true);
      if (world.data.renewedFrom) {
        await shown(page.getByRole('status').filter({ hasText: 'Password changed' }));
        expect(await storedToken(world)).not.toBe(world.data.renewedFrom);
      }
      if (world.data.saved) await shown(page.getByRole('status').filter({ hasText: 'Saved' }));
      return;
    }
    // Logged out, not yet checked, or on the way in: the logged-out screens.
    if (place.path === '/landing') await shown(link(world, 'Register'));
    if (place.path === '/welcome')
      await shown(page.getByRole('heading', { name: 'Your session has ended', level: 1 }));
    if (place.path === '/login')
      expect(await main(world).getByRole('button', { name: 'Log in' }).isDisabled()).toBe(busy);
    if (place.path === '/register') {
      const form = main(world);
      expect(await form.getByRole('button', { name: 'Create account' }).isDisabled()).toBe(busy);
      const code = codeOf(snapshot);
      expect(await form.getByRole('button', { name: 'Send code' }).isDisabled()).toBe(code === 'sending');
      expect(
        await form.getByRole('status').filter({ hasText: 'We emailed you a 6-digit code' }).count(),
      ).toBe(code === 'sent' ? 1 : 0);
      // A refused signup names its field, which says it again in place.
      if (world.data.fieldError)
        expect(await form.getByLabel(world.data.fieldError as string).getAttribute('aria-invalid')).toBe(
          'true',
        );
    }
  },
};
