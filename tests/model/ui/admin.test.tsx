// @vitest-environment jsdom
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getPathsFromEvents } from 'xstate/graph';
import { adminListMachine } from '../../../machines/adminList';
import { call, encrypter, type TestServer } from '../../support/app';
import { apiServerForTests, renderApp, screen, settle } from './app';

type Step = { type: string; [key: string]: unknown };
const done = (id: string): Step => ({ type: `xstate.done.actor.${id}`, output: { items: [], next: null } });
const failed = (id: string): Step => ({ type: `xstate.error.actor.${id}`, error: new Error(id) });

/**
 * Journeys through the categories screen, as paths of the admin list machine: which event comes
 * next decides what the admin types (a new name, one taken already…). Network failures are left to
 * the machine's own model test.
 */
const journeys: Step[][] = [
  [done('fetchPage'), { type: 'SAVE', change: { kind: 'create' } }, done('saveChange'), done('fetchPage')],
  [done('fetchPage'), { type: 'SAVE', change: { kind: 'create' } }, failed('saveChange')],
  [
    done('fetchPage'),
    { type: 'EDIT', id: 'k' },
    { type: 'SAVE', change: { kind: 'update', id: 'k' } },
    done('saveChange'),
    done('fetchPage'),
  ],
  [done('fetchPage'), { type: 'EDIT', id: 'k' }, { type: 'CANCEL' }],
  [done('fetchPage'), { type: 'ASK_REMOVE', record: { _id: 'k' } }, { type: 'CANCEL' }],
  [
    done('fetchPage'),
    { type: 'ASK_REMOVE', record: { _id: 'k' } },
    { type: 'CONFIRM' },
    done('removeRecord'),
    done('fetchPage'),
  ],
];
const paths = journeys.map((events) => {
  const [path] = getPathsFromEvents(adminListMachine as never, [{ type: 'LOAD' }, ...events] as never);
  if (!path) throw new Error(`not a path of the machine: ${events.map((event) => event.type).join(' → ')}`);
  return { steps: path.steps.slice(1).map((step) => step.event as Step), state: path.state };
});

describe('admin categories: paths of the admin list machine drive the rendered app against the real server', () => {
  const server = apiServerForTests();

  /** The seeded owner of `app`, logged in as the browser keeps it. */
  async function loggedInOwner() {
    const encrypt = await encrypter(server as unknown as TestServer);
    const { body } = await call(server as unknown as TestServer, '/auth/login', {
      body: { email: encrypt('admin@parley.test'), password: encrypt('parley-admin-1') },
      tenant: 'app',
    });
    localStorage.setItem('token', body.token);
  }
  const rows = () => within(screen.getByRole('list', { name: 'Categories' }));
  const name = `Sonnets ${Date.now().toString(36)}`;

  async function perform(event: Step, next: string | undefined, unique: string) {
    switch (event.type) {
      case 'SAVE':
        if ((event.change as { kind: string }).kind === 'create') {
          // A name taken already is refused by the server, next to the field.
          const value = next === 'xstate.error.actor.saveChange' ? 'Writing' : unique;
          fireEvent.change(screen.getByLabelText('New category'), { target: { value } });
          fireEvent.click(screen.getByRole('button', { name: 'Create' }));
        } else {
          fireEvent.change(screen.getByLabelText('New name'), { target: { value: `${unique} II` } });
          fireEvent.click(rows().getByRole('button', { name: 'Save' }));
        }
        break;
      case 'xstate.done.actor.saveChange':
        await screen.findByText(/Category (created|renamed)/);
        break;
      case 'xstate.error.actor.saveChange': {
        const field = screen.getByLabelText('New category');
        await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
        expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
          /exists already/,
        );
        break;
      }
      case 'xstate.done.actor.fetchPage':
        await screen.findAllByRole('button', { name: /^Rename / });
        break;
      case 'EDIT':
        fireEvent.click(await screen.findByRole('button', { name: `Rename ${unique}` }));
        await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('New name')));
        break;
      case 'CANCEL':
        if (screen.queryByRole('alertdialog')) {
          fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
          await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
        } else {
          fireEvent.keyDown(screen.getByLabelText('New name'), { key: 'Escape' });
          await waitFor(() =>
            expect(document.activeElement).toBe(screen.getByRole('button', { name: `Rename ${unique}` })),
          );
        }
        break;
      case 'ASK_REMOVE':
        fireEvent.click(await screen.findByRole('button', { name: `Delete ${unique}` }));
        await screen.findByRole('alertdialog', { name: 'Delete this category?' });
        break;
      case 'CONFIRM':
        fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
        break;
      case 'xstate.done.actor.removeRecord':
        await screen.findByText('Category deleted');
        expect(screen.queryByRole('alertdialog')).toBeNull();
        break;
    }
    await settle();
  }

  it.each(
    paths.map((path, index) => [path.steps.map((step) => step.type).join(' → '), index, path] as const),
  )('%s', async (_name, index, { steps }) => {
    await loggedInOwner();
    const unique = `${name} ${index}`;
    // The journeys that change a category start from one of their own.
    if (steps.some((step) => ['EDIT', 'ASK_REMOVE'].includes(step.type))) {
      const token = localStorage.getItem('token') ?? '';
      const encrypt = await encrypter(server as unknown as TestServer);
      await call(server as unknown as TestServer, '/api/v1/admin/category', {
        body: { name: encrypt(unique) },
        token,
        tenant: 'app',
      });
    }
    await renderApp(server, '/admin/categories');
    await screen.findByRole('heading', { name: 'Categories', level: 1 });
    for (const [position, event] of steps.entries()) await perform(event, steps[position + 1]?.type, unique);
    const last = steps.at(-1)?.type;
    if (last === 'xstate.done.actor.fetchPage' && steps.some((step) => step.type === 'CONFIRM'))
      expect(rows().queryByText(unique)).toBeNull();
    if (last === 'xstate.done.actor.fetchPage' && steps.some((step) => step.type === 'EDIT'))
      await rows().findByText(`${unique} II`);
  });
});
