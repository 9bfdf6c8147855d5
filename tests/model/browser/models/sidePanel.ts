import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  profileFlagsOf,
  type SidePanelView,
  shownViewOf,
  showViewEvents,
  sidePanelMachine,
} from '../../../../machines/sidePanel';
import { signUp, type TestServer } from '../../../support/app';
import type { BrowserModel, PathWorld } from '../runner';

const titles: Record<SidePanelView, string> = {
  profile: 'Profile',
  bot: 'Bot details',
  botList: 'Bot list',
  notifications: 'Notifications',
  botFilter: 'Filter bots',
};
const viewOf = (type: string) =>
  (Object.keys(showViewEvents) as SidePanelView[]).find((view) => showViewEvents[view] === type);

const header = ({ page }: PathWorld) => page.getByRole('navigation', { name: 'Side panel' });
const panel = ({ page }: PathWorld) => page.getByRole('complementary');

/** The side panel on the home screen of a signed-in user, driven by its header buttons and keyboard. */
export const sidePanelBrowserModel: BrowserModel = {
  name: 'sidePanel',
  chainWalks: true,
  machine: sidePanelMachine,
  events: [
    { type: 'SHOW_PROFILE' },
    { type: 'SHOW_BOT', botId: 'eliza' },
    { type: 'SHOW_BOT_LIST' },
    { type: 'SHOW_NOTIFICATIONS' },
    { type: 'SHOW_BOT_FILTER' },
    { type: 'TOGGLE' },
    { type: 'CLOSE' },
    { type: 'RESIZE', width: 700 },
    { type: 'TOGGLE_BALANCE' },
    { type: 'TOGGLE_ORDER_INFO' },
    { type: 'TOGGLE_CURRENCY_SELECT' },
  ],
  start: async (world) => {
    world.shared.token ??= (await signUp(world.server as unknown as TestServer)).token;
    await world.context.addInitScript(
      (token) => localStorage.setItem('token', token),
      world.shared.token as string,
    );
    await world.page.goto(`${world.server.url}/list`);
    await world.page.getByRole('button', { name: 'Details ELIZA' }).waitFor();
  },
  perform: async (world, event) => {
    const { page } = world;
    const view = viewOf(event.type);
    if (event.type === 'SHOW_BOT') await page.getByRole('button', { name: 'Details ELIZA' }).click();
    else if (view)
      await header(world)
        .getByRole('button', { name: new RegExp(`^${titles[view]}`) })
        .click();
    else if (event.type === 'TOGGLE') await header(world).getByRole('button', { name: 'Side panel' }).click();
    else if (event.type === 'CLOSE') await page.keyboard.press('Escape');
    else if (event.type === 'RESIZE')
      await page.setViewportSize({ width: event.width as number, height: 800 });
    else if (event.type === 'TOGGLE_BALANCE')
      await panel(world)
        .getByRole('button', { name: /Show balance|Hide balance/ })
        .click();
    else if (event.type === 'TOGGLE_ORDER_INFO')
      await panel(world).getByRole('button', { name: 'Order history' }).click();
    else if (event.type === 'TOGGLE_CURRENCY_SELECT')
      await panel(world).getByRole('button', { name: 'Currency' }).click();
  },
  expectScreen: async (world, snapshot: AnyMachineSnapshot) => {
    const view = shownViewOf(snapshot as never);
    const toggle = header(world).getByRole('button', { name: 'Side panel' });
    expect(await toggle.getAttribute('aria-expanded')).toBe(String(view !== null));
    if (view === null) {
      expect(await panel(world).count()).toBe(0);
      return;
    }
    expect(await panel(world).getByRole('heading', { level: 2 }).textContent()).toBe(titles[view]);
    if (view === 'bot') await panel(world).getByRole('heading', { name: 'ELIZA', level: 3 }).waitFor();
    if (view === 'profile') {
      const flags = profileFlagsOf(snapshot as never);
      const unfolded = async (name: string | RegExp, shown: boolean, content: ReturnType<typeof panel>) => {
        expect(await panel(world).getByRole('button', { name }).getAttribute('aria-expanded')).toBe(
          String(shown),
        );
        expect(await content.count()).toBe(shown ? 1 : 0);
      };
      await unfolded(/Show balance|Hide balance/, flags.balanceShown, panel(world).getByText(/^Balance:/));
      await unfolded('Order history', flags.orderInfoShown, panel(world).getByRole('list'));
      await unfolded('Currency', flags.currencySelectShown, panel(world).getByLabel('Billing currency'));
    }
  },
};
