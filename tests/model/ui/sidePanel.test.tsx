// @vitest-environment jsdom
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { sidePanelMachine } from '../../../machines/sidePanel';
import type { RunningServer } from '../../e2e/support/server';
import { loggedInUser, renderApp, screen, settle, startApi } from './app';

type PanelEvent = { type: string; view?: string; botId?: string; width?: number };

const titles: Record<string, string> = {
  profile: 'Profile',
  bot: 'Bot details',
  botList: 'Bot list',
  notifications: 'Notifications',
  botFilter: 'Filter bots',
};

/** What a person does on screen for each machine event. */
async function perform(event: PanelEvent) {
  const header = screen.getByRole('navigation', { name: 'Side panel' });
  switch (event.type) {
    case 'CHANGE_VIEW':
      if (event.view === 'bot') fireEvent.click(await screen.findByRole('button', { name: 'Details ELIZA' }));
      else
        fireEvent.click(
          within(header).getByRole('button', { name: new RegExp(`^${titles[event.view ?? 'profile']}`) }),
        );
      break;
    case 'CLOSE':
      fireEvent.click(screen.getByRole('button', { name: 'Close side panel' }));
      break;
    case 'RESIZE':
      Object.defineProperty(window, 'innerWidth', { value: event.width, configurable: true });
      fireEvent(window, new Event('resize'));
      break;
    case 'TOGGLE_BALANCE':
      fireEvent.click(screen.getByRole('button', { name: /Show balance|Hide balance/ }));
      break;
    case 'TOGGLE_ORDER_INFO':
      fireEvent.click(screen.getByRole('button', { name: 'Order history' }));
      break;
    case 'TOGGLE_CURRENCY_SELECT':
      fireEvent.click(screen.getByRole('button', { name: 'Currency' }));
      break;
  }
  await settle();
}

/** What the screen must show in a state of the machine. */
async function expectScreen(state: { value: unknown; context: Record<string, unknown> }) {
  const value = state.value as string | { open: string };
  if (value === 'closed') {
    expect(screen.queryByRole('complementary')).toBeNull();
    return;
  }
  const view = (value as { open: string }).open;
  const panel = screen.getByRole('complementary');
  expect(within(panel).getByRole('heading', { level: 2 }).textContent).toBe(titles[view]);
  if (view === 'bot') await within(panel).findByRole('heading', { name: 'ELIZA' });
  if (view === 'profile') {
    expect(within(panel).queryByText(/^Balance/) !== null).toBe(state.context.balanceShown);
    expect(within(panel).queryByLabelText('Billing currency') !== null).toBe(
      state.context.currencySelectShown,
    );
  }
}

describe('side panel: paths generated from its machine, driving the rendered app against the real server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startApi();
  }, 120_000);
  afterAll(() => server?.stop());

  const events: PanelEvent[] = [
    ...Object.keys(titles).map((view) => ({
      type: 'CHANGE_VIEW',
      view,
      ...(view === 'bot' ? { botId: 'eliza' } : {}),
    })),
    { type: 'CLOSE' },
    { type: 'RESIZE', width: 700 },
    { type: 'TOGGLE_BALANCE' },
    { type: 'TOGGLE_CURRENCY_SELECT' },
  ];
  const paths = getShortestPaths(sidePanelMachine, { events: events as never });

  it(`walks ${paths.length} generated paths; every state shows what it should`, async () => {
    await loggedInUser(server);
    for (const path of paths) {
      Object.defineProperty(window, 'innerWidth', { value: 1280, configurable: true });
      await renderApp(server, '/list');
      await screen.findByRole('heading', { name: /^Hello/ });
      await screen.findByRole('button', { name: 'Details ELIZA' });
      for (const step of path.steps.slice(1)) {
        await perform(step.event as PanelEvent);
        await waitFor(() => expectScreen(step.state as never));
      }
      cleanup();
    }
  }, 300_000);
});
