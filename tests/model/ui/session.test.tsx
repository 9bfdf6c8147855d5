// @vitest-environment jsdom
import { cleanup, fireEvent, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getPathsFromEvents, getShortestPaths } from 'xstate/graph';
import { sessionMachine } from '../../../machines/session';
import type { TestServer } from '../../support/app';
import { signUp } from '../../support/app';
import type { RunningServer } from '../../support/server';
import { renderApp, screen, settle, startApi } from './app';

type Step = { type: string; [key: string]: unknown };

describe('session: paths generated from its machine drive the rendered app against the real server', () => {
  let server: RunningServer;
  let account: { email: string; password: string; displayName: string };

  beforeAll(async () => {
    server = await startApi();
    account = await signUp(server as unknown as TestServer);
  }, 120_000);
  afterAll(() => server?.stop());
  afterEach(() => cleanup());

  // User events, and the outcomes the real server gives them (which one depends on what the user typed).
  const events: Step[] = [
    { type: 'CHECK', returnUrl: '/list' },
    { type: 'LOGIN', email: 'user@example.org', password: 'secret' },
    { type: 'xstate.done.actor.login', output: 'token' },
    { type: 'xstate.error.actor.login', error: new Error('Invalid email or password') },
    { type: 'xstate.done.actor.loadUser', output: { _id: 'u', displayName: 'User', username: 'user' } },
    { type: 'LOGOUT' },
    { type: 'SIGNUP', username: 'u', displayName: 'U', email: 'not an email', password: 'p', otp: '1' },
    { type: 'xstate.done.actor.logout' },
  ];
  const shortest = getShortestPaths(sessionMachine, {
    input: { token: null, user: null },
    events: events as never,
  }).filter(
    (path) =>
      !['loggingIn', 'loadingUser', 'loggingOut'].includes((path.state.value as { auth: string }).auth) &&
      path.steps.length <= 6,
  );
  // Journeys that come back to a state seen before (logout, a refused signup) are no shortest path: add them.
  const returning = [[events[1], events[2], events[4], events[5], events[7]], [events[6]]].flatMap(
    (sequence) =>
      getPathsFromEvents(sessionMachine as never, sequence as never, { input: { token: null, user: null } }),
  );
  const paths = [...shortest, ...(returning as unknown as typeof shortest)];

  const logIn = async (password: string) => {
    if (!window.location.pathname.startsWith('/login')) {
      window.history.pushState(null, '', '/login');
      window.dispatchEvent(new PopStateEvent('popstate'));
    }
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: account.email } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
  };

  it.each(
    paths.map(
      (path) =>
        [
          path.steps
            .slice(1)
            .map((step) => step.event.type)
            .join(' → ') || '(start)',
          path,
        ] as const,
    ),
  )('%s', async (_name, path) => {
    localStorage.clear();
    await renderApp(server, '/landing');
    await screen.findByRole('link', { name: 'Register' });
    const steps = path.steps.slice(1).map((step) => step.event as Step);
    for (const [index, event] of steps.entries()) {
      const next = steps[index + 1]?.type;
      if (event.type === 'CHECK') {
        window.history.pushState(null, '', '/list');
        window.dispatchEvent(new PopStateEvent('popstate'));
      } else if (event.type === 'LOGIN')
        await logIn(next === 'xstate.error.actor.login' ? 'a wrong password' : account.password);
      else if (event.type === 'xstate.error.actor.login') {
        const alert = await screen.findByRole('alertdialog', { name: 'Error' });
        expect(alert.textContent).toContain('Invalid email or password');
        fireEvent.click(screen.getByRole('button', { name: 'OK' }));
      } else if (event.type === 'xstate.done.actor.login')
        // The login is done when the app has moved on to the list, whatever it took the server.
        await waitFor(() => expect(window.location.pathname).toBe('/list'));
      else if (event.type === 'xstate.done.actor.loadUser')
        await screen.findByRole('heading', { name: `Hello, ${account.displayName}` });
      else if (event.type === 'LOGOUT') {
        fireEvent.click(await screen.findByRole('button', { name: 'Profile' }));
        fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
      } else if (event.type === 'xstate.done.actor.logout')
        await waitFor(() => expect(window.location.pathname).toBe('/landing'));
      else if (event.type === 'SIGNUP') {
        window.history.pushState(null, '', '/register');
        window.dispatchEvent(new PopStateEvent('popstate'));
        for (const [label, value] of [
          ['Username', 'grace'],
          ['Display name', 'Grace'],
          ['Email', 'not an email'],
          ['Password', 'secret'],
          ['One-time code', '123456'],
        ]) {
          fireEvent.change(await screen.findByLabelText(label), { target: { value } });
        }
        fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
        const alert = await screen.findByRole('alertdialog', { name: 'Error' });
        expect(alert.textContent).toContain('Invalid email address');
        fireEvent.click(screen.getByRole('button', { name: 'OK' }));
      }
      await settle();
    }
    // What the screen and storage show in the path's final state.
    const auth = (path.state.value as { auth: string }).auth;
    if (auth === 'loggedIn') {
      await screen.findByRole('heading', { name: `Hello, ${account.displayName}` });
      expect(localStorage.getItem('token')).toMatch(/^ey/);
    } else if (path.state.context.token) {
      // A failed second login leaves the earlier session's token in place.
      expect(localStorage.getItem('token')).toMatch(/^ey/);
    } else {
      await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
      if (steps.at(-1)?.type === 'CHECK')
        await waitFor(() => expect(window.location.search).toBe('?returnUrl=%2Flist'));
      if (steps.at(-1)?.type === 'xstate.done.actor.logout')
        await waitFor(() => expect(window.location.pathname).toBe('/landing'));
    }
  });
});
