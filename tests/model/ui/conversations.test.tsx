// @vitest-environment jsdom
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { type ConversationsContext, conversationsMachine } from '../../../machines/conversations';
import { call, type TestServer } from '../../support/app';
import { apiServerForTests, loggedInUser, renderApp, screen, settle } from './app';

type Step = { type: string; [key: string]: unknown };

/** Waits for what the real server answers; it may be slow while other suites load the machine. */
const eventually = (assertion: () => void) => waitFor(assertion, { timeout: 10_000 });

/** More conversations than one page holds (30), one of them about a lighthouse. */
const seeded = 32;
const lighthouse = 'I dream of the lighthouse keeper';
const renamed = 'Lighthouse log';

/** Outputs for the pure machine's paths: only their shape matters (a page with more, a search hit). */
const summary = (id: string) => ({
  _id: id,
  title: id,
  bot: { _id: 'b', name: 'ELIZA' },
  preview: 'Hello',
  streaming: false,
  createdAt: '',
  updatedAt: '',
});
const fullPage = {
  items: [...Array.from({ length: 29 }, (_, index) => summary(`c${index}`)), summary('lighthouse')],
  next: 'more',
};
const searchPage = { items: [summary('lighthouse')], next: null };
const restPage = { items: [summary('c30'), summary('c31')], next: null };

/**
 * The user's events, and the server's answers that fit the state (a search answers a search); the
 * lighthouse conversation has a menu while it is listed.
 */
const events = (snapshot: AnyMachineSnapshot): Step[] => {
  const { query, items } = snapshot.context as ConversationsContext;
  const target = { _id: 'lighthouse', title: lighthouse };
  const listed = items.some((item) => item._id === target._id);
  return [
    { type: 'LOAD' },
    { type: 'xstate.done.actor.fetchPage', output: query ? searchPage : fullPage },
    { type: 'SEARCH', query: 'LIGHTHOUSE' },
    { type: 'SEARCH', query: '' },
    { type: 'xstate.after.searchDelay.conversations.list.debouncing' },
    { type: 'LOAD_MORE' },
    { type: 'xstate.done.actor.fetchMore', output: restPage },
    ...(listed ? [{ type: 'START_RENAME', conversation: target }] : []),
    { type: 'RENAME', title: renamed },
    { type: 'xstate.done.actor.renameConversation', output: renamed },
    ...(listed ? [{ type: 'ASK_DELETE', conversation: target }] : []),
    { type: 'CANCEL' },
    { type: 'DELETE' },
    { type: 'xstate.done.actor.deleteConversation' },
    { type: 'OPEN_DRAWER' },
    { type: 'CLOSE_DRAWER' },
  ];
};

const paths = getShortestPaths(conversationsMachine, {
  events: events as never,
  serializeState: (snapshot) => {
    const { query, shownQuery, next, items } = snapshot.context as ConversationsContext;
    return JSON.stringify([snapshot.value, query, shownQuery, next, items.length]);
  },
}).filter((path) => {
  const value = path.state.value as Record<string, string>;
  // Where the user can look: the list shown, a dialog open or none (not while a change is on its way).
  return value.list === 'loaded' && ['idle', 'renaming', 'confirmingDelete'].includes(value.edit);
});

describe('conversations: paths generated from its machine drive the rendered app against the real server', () => {
  const server = apiServerForTests();

  /** A user with `seeded` conversations, each with a first message and ELIZA's reply. */
  async function userWithConversations() {
    const user = await loggedInUser(server);
    const api = server as unknown as TestServer;
    const bots = (await call(api, '/api/v1/bot', { token: user.token })).body as {
      _id: string;
      name: string;
    }[];
    const eliza = bots.find((bot) => bot.name === 'ELIZA')?._id;
    for (let index = 0; index < seeded; index += 1) {
      const topic = await call(api, '/api/v1/topic', { token: user.token, body: { bot: eliza } });
      const text = index === 7 ? lighthouse : `An ordinary day, number ${index}`;
      await call(api, `/api/v1/topic/${topic.body._id}/message`, { token: user.token, body: { text } });
    }
    return user;
  }
  const sidebar = () => screen.getByRole('navigation', { name: 'Conversations' });
  const rows = () => within(sidebar()).queryAllByRole('link', { name: /ordinary day|lighthouse/i });
  const openMenuItem = async (item: string) => {
    const [menu] = await within(sidebar()).findAllByRole(
      'button',
      { name: /^Conversation actions: .*lighthouse/i },
      { timeout: 10_000 },
    );
    fireEvent.click(menu);
    fireEvent.click(await screen.findByRole('menuitem', { name: item }));
  };

  /** What a person does on screen for a machine event, and waits for; `after` is the state it leads to. */
  async function perform(event: Step, after: ConversationsContext) {
    switch (event.type) {
      case 'xstate.done.actor.fetchPage':
        if (after.shownQuery) await eventually(() => expect(rows()).toHaveLength(1));
        else await eventually(() => expect(rows().length).toBeGreaterThanOrEqual(30));
        break;
      case 'SEARCH':
        fireEvent.change(within(sidebar()).getByLabelText('Search conversations'), {
          target: { value: event.query },
        });
        break;
      case 'LOAD_MORE':
        fireEvent.click(within(sidebar()).getByRole('button', { name: 'Show more' }));
        break;
      case 'xstate.done.actor.fetchMore':
        await eventually(() => expect(rows()).toHaveLength(seeded));
        break;
      case 'START_RENAME':
        await openMenuItem('Rename');
        break;
      case 'RENAME': {
        const dialog = await screen.findByRole('dialog', { name: 'Rename conversation' });
        fireEvent.change(within(dialog).getByLabelText('New title'), { target: { value: event.title } });
        fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
        break;
      }
      case 'ASK_DELETE':
        await openMenuItem('Delete');
        break;
      case 'CANCEL':
        fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Keep' }));
        break;
      case 'DELETE':
        fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes, delete' }));
        break;
      case 'OPEN_DRAWER':
        fireEvent.click(screen.getByRole('button', { name: 'Conversations' }));
        break;
      case 'CLOSE_DRAWER':
        fireEvent.click(within(sidebar()).getByRole('button', { name: 'Close conversations' }));
        break;
    }
    await settle();
  }

  it.each(paths.map((path) => [path.steps.map((step) => step.event.type).join(' → '), path] as const))(
    '%s',
    async (_name, path) => {
      const user = await userWithConversations();
      await renderApp(server, '/list');
      await screen.findByRole('heading', { name: /^Hello/ }, { timeout: 10_000 });
      for (const step of path.steps)
        await perform(step.event as Step, (step.state as AnyMachineSnapshot).context as ConversationsContext);

      const state = path.state as AnyMachineSnapshot;
      const { shownQuery, next } = state.context as ConversationsContext;
      const value = state.value as Record<string, string>;
      const types = path.steps.map((step) => step.event.type as string);
      const wasRenamed = types.includes('xstate.done.actor.renameConversation');
      const wasDeleted = types.includes('xstate.done.actor.deleteConversation');
      if (shownQuery) {
        // The server's search: one match, case-insensitively, its passage marked.
        await eventually(() => expect(rows()).toHaveLength(wasDeleted ? 0 : 1));
        if (!wasDeleted)
          expect(
            within(sidebar()).getAllByText((_, element) => element?.tagName === 'MARK')[0].textContent,
          ).toMatch(/lighthouse/i);
      } else {
        // The first page, then the rest once asked for; a deleted one is gone.
        const shown = next === null ? seeded : 30;
        await eventually(() => expect(rows()).toHaveLength(wasDeleted ? shown - 1 : shown));
        expect(within(sidebar()).queryByRole('button', { name: 'Show more' }) !== null).toBe(next !== null);
        expect(within(sidebar()).getByRole('heading', { name: 'Today' })).toBeTruthy();
      }
      if (wasRenamed && !wasDeleted)
        await within(sidebar()).findByRole('link', { name: new RegExp(renamed) }, { timeout: 10_000 });
      if (wasDeleted) {
        const listed = await call(server as unknown as TestServer, '/api/v1/topic', { token: user.token });
        expect(listed.body).toHaveLength(seeded - 1);
      }
      expect(screen.queryByRole('dialog') !== null).toBe(value.edit === 'renaming');
      expect(screen.queryByRole('alertdialog') !== null).toBe(value.edit === 'confirmingDelete');
      // The drawer's button says whether it is open; while open, focus stays inside the sidebar.
      const drawerButton = screen.getByRole('button', { name: 'Conversations' });
      expect(drawerButton.getAttribute('aria-expanded')).toBe(String(value.drawer === 'open'));
      if (value.drawer === 'open' && value.edit === 'idle')
        expect(sidebar().contains(document.activeElement)).toBe(true);
    },
    60_000,
  );
});
