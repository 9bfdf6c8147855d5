// @vitest-environment jsdom
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  profileFlagsOf,
  type SidePanelView,
  shownViewOf,
  showViewEvents,
  sidePanelMachine,
} from '../../../machines/sidePanel';
import type { RunningServer } from '../../support/server';
import { loggedInUser, renderApp, screen, settle, startApi } from './app';

type PanelEvent = { type: string; botId?: string; width?: number };

const titles: Record<SidePanelView, string> = {
  profile: 'Profile',
  bot: 'Bot details',
  botList: 'Bot list',
  notifications: 'Notifications',
  botFilter: 'Filter bots',
};

/** What a person does on screen for each machine event. */
async function perform(event: PanelEvent) {
  const header = screen.getByRole('navigation', { name: 'Side panel' });
  const view = (Object.keys(showViewEvents) as SidePanelView[]).find(
    (shown) => showViewEvents[shown] === event.type,
  );
  switch (event.type) {
    case 'SHOW_BOT':
      fireEvent.click(await screen.findByRole('button', { name: 'Details ELIZA' }));
      break;
    case 'SHOW_PROFILE':
    case 'SHOW_BOT_LIST':
    case 'SHOW_NOTIFICATIONS':
    case 'SHOW_BOT_FILTER':
      fireEvent.click(
        within(header).getByRole('button', { name: new RegExp(`^${titles[view ?? 'profile']}`) }),
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
async function expectScreen(state: SnapshotFrom<typeof sidePanelMachine>) {
  const view = shownViewOf(state);
  if (view === null) {
    expect(screen.queryByRole('complementary')).toBeNull();
    return;
  }
  const panel = screen.getByRole('complementary');
  expect(within(panel).getByRole('heading', { level: 2 }).textContent).toBe(titles[view]);
  if (view === 'bot') await within(panel).findByRole('heading', { name: 'ELIZA' });
  if (view === 'profile') {
    const flags = profileFlagsOf(state);
    expect(within(panel).queryByText(/^Balance/) !== null).toBe(flags.balanceShown);
    expect(within(panel).queryByLabelText('Billing currency') !== null).toBe(flags.currencySelectShown);
  }
}

describe('side panel: paths generated from its machine, driving the rendered app against the real server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startApi();
  }, 120_000);
  afterAll(() => server?.stop());

  const events: PanelEvent[] = [
    { type: 'SHOW_PROFILE' },
    { type: 'SHOW_BOT', botId: 'eliza' },
    { type: 'SHOW_BOT_LIST' },
    { type: 'SHOW_NOTIFICATIONS' },
    { type: 'SHOW_BOT_FILTER' },
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
