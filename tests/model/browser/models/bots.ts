import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type BotRecord, botsMachine, filterBots } from '../../../../machines/bots';
import { call, signUp } from '../../../support/app';
import type { ActorRequest, ModelEvent, PathWorld } from '../runner';
import { apiOf, openProfile, storeToken, tokenOf } from './session';

type Account = Awaited<ReturnType<typeof signUp>>;

/** The seed's category the FILTER event picks, by its name on the chip. */
const tools = 'Tools';

const requests: Record<string, ActorRequest> = {
  // A network failure: the catalogue says so and offers Retry.
  fetchBots: { method: 'GET', path: /^\/api\/v1\/bot$/ },
};

const catalogue = ({ page }: PathWorld) => page.getByRole('region', { name: 'Bots', exact: true });
const shown = async (locator: ReturnType<PathWorld['page']['getByRole']>) =>
  expect(await locator.isVisible()).toBe(true);

/**
 * The bot catalogue of /list. Nothing asks for the bots before the login check passes (landing shows
 * none); they load with the user, once, and a failed load is retried by hand or by the next login.
 */
export const botsBrowserModel = {
  name: 'bots',
  chainWalks: true,
  machine: botsMachine,
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'FILTER', categoryIds: [tools] },
    { type: 'xstate.done.actor.fetchBots', output: [] },
    { type: 'xstate.error.actor.fetchBots', error: new Error('fetchBots failed') },
  ] as ModelEvent[],
  // The category chips come with the bots: there is nothing to filter before they are loaded.
  possible: (snapshot: AnyMachineSnapshot, event: ModelEvent) =>
    event.type !== 'FILTER' || snapshot.matches('loaded'),
  requests,
  start: async (world: PathWorld) => {
    world.shared.account ??= await signUp(apiOf(world));
    const account = world.shared.account as Account;
    // A token of its own: a path that logs out revokes the one it had.
    const token = await tokenOf(world, account);
    world.shared.bots ??= (await call(apiOf(world), '/api/v1/bot', { token })).body;
    await storeToken(world, token);
    await world.page.goto(`${world.server.url}/landing`);
  },
  perform: async (world: PathWorld, event: ModelEvent) => {
    const { page } = world;
    const account = world.shared.account as Account;
    if (event.type === 'LOAD' && new URL(page.url()).pathname === '/landing')
      // The login check of /list loads the user and, with it, the bots.
      await page.getByRole('banner').getByRole('link', { name: 'Parley', exact: true }).click();
    else if (event.type === 'LOAD') {
      // Loaded with the user: logging out and in again asks for them anew.
      const panel = await openProfile(world);
      await panel.getByRole('button', { name: 'Log out', exact: true }).click();
      await page.getByRole('main').getByRole('link', { name: 'Log in', exact: true }).click();
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password', { exact: true }).fill(account.password);
      await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    } else if (event.type === 'RETRY') await catalogue(world).getByRole('button', { name: 'Retry' }).click();
    else if (event.type === 'FILTER')
      await catalogue(world).getByRole('button', { name: tools, exact: true }).click();
  },
  // The runner hands in the path's own snapshot (replayed from its events), context included.
  expectScreen: async (world: PathWorld, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    if (snapshot.matches('idle')) {
      // Landing: no catalogue, nothing asked for.
      await shown(page.getByRole('main').getByRole('link', { name: 'Register', exact: true }));
      expect(await catalogue(world).count()).toBe(0);
      return;
    }
    const account = world.shared.account as Account;
    await shown(page.getByRole('heading', { name: `Hello, ${account.displayName}`, level: 1 }));
    const busy = catalogue(world).locator('[aria-busy="true"]');
    const problem = catalogue(world).getByRole('alert');
    const names = catalogue(world).getByRole('heading', { level: 4 });
    if (snapshot.matches('loading')) {
      expect(await busy.textContent()).toBe('Loading…');
      expect(await problem.count()).toBe(0);
      expect(await names.count()).toBe(0);
    } else if (snapshot.matches('failed')) {
      expect(await problem.textContent()).toContain(
        'Cannot reach the server. Check your connection and try again.',
      );
      await shown(problem.getByRole('button', { name: 'Retry' }));
      expect(await busy.count()).toBe(0);
    } else {
      // The active bots of the chosen categories: the pure filter on what the server has.
      const bots = world.shared.bots as BotRecord[];
      const chosen = bots
        .flatMap((bot) => bot.categories)
        .filter((category) => (snapshot.context.categoryIds as string[]).includes(category.name))
        .map((category) => category._id);
      const expected = filterBots(bots, [...new Set(chosen)]).map((bot) => bot.name);
      expect((await names.allTextContents()).sort()).toEqual(expected.sort());
      expect(expected.length).toBeGreaterThan(0);
      expect(
        await catalogue(world).getByRole('button', { name: tools, exact: true }).getAttribute('aria-pressed'),
      ).toBe(String(chosen.length > 0));
      expect(await busy.count()).toBe(0);
    }
  },
};
