// @vitest-environment jsdom
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { getPathsFromEvents, getShortestPaths } from 'xstate/graph';
import { accountMachine } from '../../../machines/account';
import { readCode } from '../../support/outbox';
import { apiServerForTests, loggedInUser, renderApp, screen, settle } from './app';

type Step = { type: string; [key: string]: unknown };
type User = Awaited<ReturnType<typeof loggedInUser>>;

const done = (id: string): Step => ({ type: `xstate.done.actor.${id}`, output: 'x' });
const failed = (id: string): Step => ({ type: `xstate.error.actor.${id}`, error: new Error(id) });

/**
 * The user events of each region of the account machine, and the outcomes the real server gives them:
 * which one a path takes decides what the user types (a right or a wrong password, a taken name…).
 * Failures only a broken network can cause are left to the machine's own model test.
 */
const regions: Record<string, Step[]> = {
  profile: [
    { type: 'SAVE_PROFILE', changes: { displayName: 'New name' } },
    done('updateProfile'),
    failed('updateProfile'),
  ],
  password: [
    { type: 'CHANGE_PASSWORD', password: 'current', newPassword: 'new' },
    done('changePassword'),
    failed('changePassword'),
  ],
  sessions: [{ type: 'LOG_OUT_EVERYWHERE' }, done('logoutEverywhere')],
  data: [{ type: 'DOWNLOAD_DATA' }, done('exportData')],
  deletion: [
    { type: 'ASK_TO_DELETE' },
    { type: 'CANCEL_DELETE' },
    { type: 'DELETE_ACCOUNT', password: 'current' },
    done('deleteAccount'),
    failed('deleteAccount'),
  ],
  recovery: [
    { type: 'SEND_RESET_CODE', email: 'user@example.org' },
    done('sendResetCode'),
    failed('sendResetCode'),
    { type: 'CHANGE_EMAIL' },
    { type: 'RESET_PASSWORD', otp: '123456', password: 'new' },
    done('resetPassword'),
    failed('resetPassword'),
  ],
};
const resting = ['idle', 'saved', 'changed', 'exported', 'closed', 'confirming', 'askingEmail', 'askingCode'];

/** Every path to a resting state of one region, the others left alone; a path ends where the user can look. */
const shortest = Object.entries(regions).flatMap(([region, events]) =>
  getShortestPaths(accountMachine, { events: events as never })
    .filter((path) => path.steps.length > 1)
    .filter((path) => resting.includes((path.state.value as Record<string, string>)[region]))
    .map((path) => ({ region, path })),
);
// Journeys that come back to where they started are no shortest path: add them.
const returning = (
  [
    ['sessions', [0, 1]],
    ['deletion', [0, 1]],
    ['deletion', [0, 2, 3]],
    ['recovery', [0, 1, 4, 5]],
  ] as const
).flatMap(([region, indexes]) =>
  getPathsFromEvents(accountMachine as never, indexes.map((index) => regions[region][index]) as never).map(
    (path) => ({
      region,
      path,
    }),
  ),
);
const paths = [...shortest, ...returning].map(({ region, path }) => ({
  region,
  steps: path.steps.slice(1).map((step) => step.event as Step),
  state: path.state as AnyMachineSnapshot,
}));

describe('account: paths generated from its machine drive the rendered app against the real server', () => {
  const server = apiServerForTests();

  const panel = () => screen.getByRole('complementary');
  const type = (label: string, value: string, within_ = document.body) =>
    fireEvent.change(within(within_).getByLabelText(label), { target: { value } });
  /** The field's error, read the way assistive technology reads it: through aria-describedby. */
  const errorOf = (field: HTMLElement) => {
    expect(field.getAttribute('aria-invalid')).toBe('true');
    return (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
  };

  /** What a person does on screen for a machine event; `next` says how the server is to answer. */
  async function perform(event: Step, next: string | undefined, user: User, files: { name: string }[]) {
    switch (event.type) {
      case 'SAVE_PROFILE':
        if (next === 'xstate.error.actor.updateProfile') type('Username', 'not allowed!');
        else type('Display name', `${user.displayName} II`);
        fireEvent.click(within(panel()).getByRole('button', { name: 'Save' }));
        break;
      case 'xstate.done.actor.updateProfile':
        await within(panel()).findByText('Saved');
        await screen.findByRole('heading', { name: `Hello, ${user.displayName} II` });
        break;
      case 'xstate.error.actor.updateProfile':
        await waitFor(() => expect(errorOf(within(panel()).getByLabelText('Username'))).toMatch(/3 to 32/));
        break;
      case 'CHANGE_PASSWORD':
        type(
          'Current password',
          next === 'xstate.error.actor.changePassword' ? 'not my password' : user.password,
        );
        type('New password', 'a brand new password');
        fireEvent.click(within(panel()).getByRole('button', { name: 'Change password' }));
        break;
      case 'xstate.done.actor.changePassword': {
        await within(panel()).findByText('Password changed');
        // A renewed token replaces the old one; this session goes on (only the others end).
        await waitFor(() => expect(localStorage.getItem('token')).not.toBe(user.token));
        const renewed = await fetch(`${server.url}/api/v1/user/me`, {
          headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
        });
        expect(renewed.status).toBe(200);
        expect((within(panel()).getByLabelText('Current password') as HTMLInputElement).value).toBe('');
        break;
      }
      case 'xstate.error.actor.changePassword':
        await waitFor(() =>
          expect(errorOf(within(panel()).getByLabelText('Current password'))).toContain('not right'),
        );
        break;
      case 'LOG_OUT_EVERYWHERE':
        fireEvent.click(within(panel()).getByRole('button', { name: 'Log out everywhere' }));
        break;
      case 'xstate.done.actor.logoutEverywhere':
        await waitFor(() => expect(window.location.pathname).toBe('/landing'));
        expect(localStorage.getItem('token')).toBeNull();
        break;
      case 'DOWNLOAD_DATA':
        fireEvent.click(within(panel()).getByRole('button', { name: 'Download my data' }));
        break;
      case 'xstate.done.actor.exportData':
        await within(panel()).findByText('Your data has been downloaded.');
        expect(files.map((file) => file.name)).toEqual([`parley-${user.username}.json`]);
        break;
      case 'ASK_TO_DELETE':
        fireEvent.click(within(panel()).getByRole('button', { name: 'Delete my account' }));
        await screen.findByRole('alertdialog', { name: 'Delete your account?' });
        break;
      case 'CANCEL_DELETE':
        fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
        await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
        // Focus goes back to the button that opened the dialog.
        expect(document.activeElement).toBe(
          within(panel()).getByRole('button', { name: 'Delete my account' }),
        );
        break;
      case 'DELETE_ACCOUNT': {
        const dialog = screen.getByRole('alertdialog');
        type(
          'Password',
          next === 'xstate.error.actor.deleteAccount' ? 'not my password' : user.password,
          dialog,
        );
        fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
        break;
      }
      case 'xstate.done.actor.deleteAccount': {
        await waitFor(() => expect(window.location.pathname).toBe('/landing'));
        const login = await fetch(`${server.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: user.encrypt(user.email), password: user.encrypt(user.password) }),
        });
        expect(login.status).toBe(401);
        break;
      }
      case 'xstate.error.actor.deleteAccount':
        // A wrong password ends the session: a 401 on DELETE lands on welcome (seed-spec §4).
        await waitFor(() => expect(window.location.pathname).toBe('/welcome'));
        expect(localStorage.getItem('token')).toBeNull();
        break;
      case 'SEND_RESET_CODE':
        type('Email', next === 'xstate.error.actor.sendResetCode' ? 'user at example' : user.email);
        fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
        break;
      case 'xstate.done.actor.sendResetCode':
        await screen.findByLabelText('One-time code');
        expect(screen.getByRole('status').textContent).toMatch(/we emailed it a 6-digit code/);
        break;
      case 'xstate.error.actor.sendResetCode':
        await waitFor(() => expect(errorOf(screen.getByLabelText('Email'))).toBe('Invalid email address'));
        break;
      case 'CHANGE_EMAIL':
        fireEvent.click(screen.getByRole('button', { name: 'Use another email address' }));
        await screen.findByRole('button', { name: 'Send code' });
        break;
      case 'RESET_PASSWORD':
        type(
          'One-time code',
          next === 'xstate.error.actor.resetPassword' ? '000000' : await readCode(server.dataDir, user.email),
        );
        type('New password', 'a brand new password');
        fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
        break;
      case 'xstate.done.actor.resetPassword':
        await waitFor(() => expect(window.location.pathname).toBe('/list'));
        await screen.findByRole('heading', { name: `Hello, ${user.displayName}` });
        expect(localStorage.getItem('token')).not.toBe(user.token);
        break;
      case 'xstate.error.actor.resetPassword':
        await waitFor(() => expect(errorOf(screen.getByLabelText('One-time code'))).toMatch(/code is wrong/));
        break;
    }
    await settle();
  }

  /** What the screen must show in the path's last state. */
  function expectScreen(region: string, state: AnyMachineSnapshot) {
    const value = (state.value as Record<string, string>)[region];
    if (region === 'deletion' && value === 'confirming')
      expect(screen.queryByRole('alertdialog', { name: 'Delete your account?' })).not.toBeNull();
    if (region === 'recovery')
      expect(screen.queryByLabelText('One-time code') !== null).toBe(value === 'askingCode');
  }

  it.each(paths.map((path) => [path.steps.map((step) => step.type).join(' → '), path] as const))(
    '%s',
    async (_name, { region, steps, state }) => {
      const user = await loggedInUser(server);
      if (region === 'recovery') localStorage.clear();
      const { savedFiles } = await renderApp(server, region === 'recovery' ? '/forgot' : '/list');
      if (region === 'recovery') await screen.findByRole('heading', { name: 'Reset your password' });
      else {
        await screen.findByRole('heading', { name: `Hello, ${user.displayName}` });
        fireEvent.click(screen.getByRole('button', { name: 'Profile' }));
        await within(await screen.findByRole('complementary')).findByRole('heading', {
          name: 'Edit profile',
        });
      }
      for (const [index, event] of steps.entries())
        await perform(event, steps[index + 1]?.type, user, savedFiles);
      if (!steps.at(-1)?.type.startsWith('xstate.error.actor.deleteAccount')) expectScreen(region, state);
    },
  );
});
