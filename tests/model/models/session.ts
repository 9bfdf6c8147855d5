import { fromPromise } from 'xstate';
import { isSameSitePath, sessionMachine } from '../../../machines/session';
import { sessionActions } from '../../../src/app/machineActions';
import { createStoredValues } from '../../../src/app/storedValues';
import { expect, type MachineModel, type ModelEvent, type World } from '../harness';
import { done, failed, failedOn, pending, recording, renamed, user } from './shared';

const lastEmitted = (world: World) =>
  world.emitted.at(-1) as { type: string; to?: string; title?: string; message?: string } | undefined;

export const sessionModel: MachineModel = {
  name: 'session',
  provide: (world) =>
    sessionMachine.provide({
      actors: {
        verifyToken: pending(),
        loadUser: pending(),
        signup: fromPromise(() => {
          world.calls.push('signup');
          return new Promise<never>(() => {});
        }) as never,
        login: pending(),
        exchangeSsoCode: pending(),
        requestOtp: pending(),
        logout: recording(world, 'logout'),
      },
      actions: sessionActions(createStoredValues(world.storage), () => world.calls.push('requestBots')),
    }),
  inputs: [
    { token: null, user: null },
    { token: 'stored-token', user: null },
  ],
  prepare: (world, input) => {
    const { token } = input as { token: string | null };
    if (token) world.storage.setItem('token', token);
  },
  events: [
    { type: 'CHECK', returnUrl: '/list?from=mail' },
    {
      type: 'SIGNUP',
      username: 'ada',
      displayName: 'Ada',
      email: 'ada@example.org',
      password: 'secret-1',
      otp: '123456',
    },
    {
      type: 'SIGNUP',
      username: 'ada',
      displayName: 'Ada',
      email: 'ada at example',
      password: 'secret-1',
      otp: '123456',
    },
    { type: 'LOGIN', email: 'ada@example.org', password: 'secret-1' },
    { type: 'SSO_CODE', code: 'sso-code', returnUrl: '/topics/new?bot=eliza' },
    // A hostile return target from the address bar: never followed.
    { type: 'SSO_CODE', code: 'sso-code', returnUrl: '//evil.example/steal' },
    { type: 'REQUEST_OTP', email: 'ada@example.org' },
    { type: 'REQUEST_OTP', email: 'not an email' },
    { type: 'LOGOUT' },
    { type: 'UNAUTHORIZED', method: 'GET' },
    { type: 'UNAUTHORIZED', method: 'PATCH' },
    { type: 'UNAUTHORIZED', method: 'DELETE' },
    done('verifyToken', { verified: 1 }),
    done('verifyToken', { verified: 0 }),
    failed('verifyToken'),
    done('loadUser', user),
    failed('loadUser'),
    done('signup', 'new-token'),
    failed('signup'),
    done('login', 'new-token'),
    failed('login'),
    done('exchangeSsoCode', 'sso-token'),
    failed('exchangeSsoCode'),
    failedOn('signup', 'username'),
    done('requestOtp', { sent: true }),
    failed('requestOtp'),
    done('logout'),
    failed('logout'),
    { type: 'xstate.after.logoutTimeout.session.auth.loggingOut' },
    { type: 'SIGNED_IN', token: 'reset-token' },
    { type: 'TOKEN_RENEWED', token: 'renewed-token' },
    { type: 'SIGNED_OUT' },
    { type: 'USER_UPDATED', user: renamed },
  ],
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      // Which token or user it is, the checks see on each path; the graph needs only whether there is one.
      snapshot.context.token !== null,
      !!snapshot.context.user,
      snapshot.context.returnUrl,
      !!snapshot.context.codeEmail,
      snapshot.context.fieldError?.field ?? null,
    ]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    // The stored token is always the machine's token: no token means logged out.
    expect(world.storage.getItem('token')).toBe(context.token);
    if (context.token === null) expect(snapshot.matches({ auth: 'loggedIn' })).toBe(false);
    if (snapshot.matches({ auth: 'loggedIn' }))
      expect(JSON.parse(world.storage.getItem('currentUser') ?? 'null')).toEqual(context.user);
    if (snapshot.matches({ auth: 'loadingUser' })) expect(world.calls).toContain('requestBots');
    for (const emitted of world.emitted as { type: string; to?: string; title?: string }[]) {
      if (emitted.type === 'navigate') expect(isSameSitePath(emitted.to ?? null)).toBe(true);
      if (emitted.type === 'alert') expect(emitted.title).toBe('Error');
    }
    const last = lastEmitted(world);
    if (event?.type === 'SIGNUP' && (event as unknown as { email: string }).email === 'ada at example') {
      expect(last).toMatchObject({ type: 'alert', message: 'Invalid email address' });
    }
    // Signup and login are offered only to a visitor not known to be logged in.
    const signedOut = snapshot.matches({ auth: 'loggedOut' }) || snapshot.matches({ auth: 'unverified' });
    expect(snapshot.can({ type: 'LOGIN', email: 'ada@example.org', password: 'secret-1' })).toBe(signedOut);
    // Back from the identity provider: the code is exchanged only by a visitor not known to be logged in.
    expect(snapshot.can({ type: 'SSO_CODE', code: 'sso-code', returnUrl: null })).toBe(signedOut);
    if (event?.type === 'SSO_CODE' && snapshot.matches({ auth: 'exchangingSsoCode' }))
      expect(context.returnUrl).toBe((event as unknown as { returnUrl: string }).returnUrl);
    // At most one signup call per valid SIGNUP, and only for one: an invalid address makes no call.
    // (Blank fields never reach the session: the forms name each one in place.)
    const isValidSignup = (sent: ModelEvent) =>
      sent.type === 'SIGNUP' && (sent as unknown as { email: string }).email.includes('@');
    expect(world.calls.filter((call) => call === 'signup').length).toBeLessThanOrEqual(
      world.sent.filter(isValidSignup).length,
    );
    if (event?.type === 'SIGNUP' && snapshot.matches({ auth: 'signingUp' })) {
      expect(isValidSignup(event)).toBe(true);
      expect(world.calls.at(-1)).toBe('signup');
    }
    // A refused signup or login leaves the visitor logged out, with nothing stored.
    if (event?.type === 'xstate.error.actor.signup' || event?.type === 'xstate.error.actor.login') {
      expect(snapshot.matches({ auth: 'loggedOut' })).toBe(true);
      expect(world.storage.getItem('token')).toBeNull();
    }
    if (event?.type === 'CHECK' && snapshot.matches({ auth: 'loggedOut' })) {
      expect(last).toEqual({
        type: 'navigate',
        to: '/landing?returnUrl=%2Flist%3Ffrom%3Dmail',
        replace: true,
      });
      expect(world.storage.getItem('currentUser')).toBeNull();
    }
    if (
      event?.type === 'xstate.done.actor.verifyToken' &&
      (event as unknown as { output: { verified: number } }).output.verified !== 1
    ) {
      expect(context.token).toBeNull();
      expect(last).toMatchObject({ type: 'navigate', to: expect.stringMatching(/^\/landing/) });
    }
    // Logout revokes the token on the server first, and forgets it whether that worked or not.
    if (event?.type === 'LOGOUT') {
      expect(snapshot.matches({ auth: 'loggingOut' })).toBe(true);
      expect(world.calls.at(-1)).toBe('logout null');
      expect(context.token).not.toBeNull();
    }
    if (
      event?.type === 'xstate.done.actor.logout' ||
      event?.type === 'xstate.error.actor.logout' ||
      event?.type === 'xstate.after.logoutTimeout.session.auth.loggingOut' ||
      event?.type === 'SIGNED_OUT'
    ) {
      expect(snapshot.matches({ auth: 'loggedOut' })).toBe(true);
      expect(context.token).toBeNull();
      expect(world.storage.getItem('currentUser')).toBeNull();
      expect(last).toEqual({ type: 'navigate', to: '/landing' });
    }
    if (event?.type === 'SIGNED_IN') {
      expect(context.token).toBe('reset-token');
      expect(snapshot.matches({ auth: 'loadingUser' })).toBe(true);
      expect(last).toMatchObject({
        type: 'navigate',
        to: isSameSitePath(context.returnUrl) ? context.returnUrl : '/list',
      });
    }
    if (event?.type === 'TOKEN_RENEWED') {
      expect(context.token).toBe('renewed-token');
      expect(snapshot.matches({ auth: 'loggedIn' })).toBe(true);
    }
    if (event?.type === 'USER_UPDATED') expect(context.user).toEqual(renamed);
    // A refused signup names its field for the register form; the next attempt starts clean.
    if (event?.type === 'xstate.error.actor.signup') {
      const { error } = event as unknown as { error: { field?: string; message: string } };
      expect(context.fieldError).toEqual(error.field ? { field: error.field, message: error.message } : null);
    }
    if (snapshot.matches({ auth: 'signingUp' })) expect(context.fieldError).toBeNull();
    if (event?.type === 'UNAUTHORIZED') {
      const method = (event as unknown as { method: string }).method;
      expect(last).toMatchObject(
        method === 'GET' ? { to: '/landing' } : { to: '/welcome', replace: method === 'DELETE' },
      );
    }
    if (event?.type === 'xstate.done.actor.signup' || event?.type === 'xstate.done.actor.login') {
      expect(world.storage.getItem('token')).toBe('new-token');
      expect(last).toMatchObject({
        type: 'navigate',
        to: isSameSitePath(context.returnUrl) ? context.returnUrl : '/list',
      });
    }
    if (event?.type === 'xstate.error.actor.login')
      expect(last).toEqual({ type: 'alert', title: 'Error', message: 'login failed' });
    // The exchanged token is kept like a login's, and the visitor goes where they were going (this site only).
    if (event?.type === 'xstate.done.actor.exchangeSsoCode') {
      expect(world.storage.getItem('token')).toBe('sso-token');
      expect(snapshot.matches({ auth: 'loadingUser' })).toBe(true);
      expect(last).toMatchObject({
        type: 'navigate',
        to: isSameSitePath(context.returnUrl) ? context.returnUrl : '/list',
        replace: true,
      });
    }
    if (event?.type === 'xstate.error.actor.exchangeSsoCode') {
      expect(snapshot.matches({ auth: 'loggedOut' })).toBe(true);
      expect(world.storage.getItem('token')).toBeNull();
      expect(last).toEqual({ type: 'alert', title: 'Error', message: 'exchangeSsoCode failed' });
    }
  },
};
