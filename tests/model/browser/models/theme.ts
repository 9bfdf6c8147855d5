import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type ThemeChoice, themeMachine } from '../../../../machines/theme';
import { signUp } from '../../../support/app';
import type { ModelEvent, PathWorld } from '../runner';
import { apiOf, openProfile, storeToken, tokenOf } from './session';

type Account = Awaited<ReturnType<typeof signUp>>;

const labels: Record<ThemeChoice, string> = { light: 'Light', dark: 'Dark', system: 'System' };
/** The page's background in each scheme (global.css `--bg`). */
const backgrounds = { light: 'rgb(255, 255, 255)', dark: 'rgb(20, 20, 31)' };

/**
 * The colour scheme, chosen in the Profile view. The system prefers dark here, so "system" and "light"
 * differ on screen as well as in what is kept for the next visit.
 */
export const themeBrowserModel = {
  name: 'theme',
  chainWalks: true,
  machine: themeMachine,
  input: { stored: null },
  events: [
    { type: 'CHOOSE', choice: 'light' },
    { type: 'CHOOSE', choice: 'dark' },
    { type: 'CHOOSE', choice: 'system' },
  ] as ModelEvent[],
  start: async (world: PathWorld) => {
    world.shared.account ??= await signUp(apiOf(world));
    world.shared.token ??= await tokenOf(world, world.shared.account as Account);
    await storeToken(world, world.shared.token as string);
    await world.page.emulateMedia({ colorScheme: 'dark' });
    await world.page.goto(`${world.server.url}/list`);
    await openProfile(world);
  },
  perform: async (world: PathWorld, event: ModelEvent) => {
    const panel = await openProfile(world);
    await panel.getByRole('radio', { name: labels[event.choice as ThemeChoice] }).check();
  },
  expectScreen: async (world: PathWorld, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    const choice = snapshot.value as ThemeChoice;
    const panel = page.getByRole('complementary');
    const appearance = panel.getByRole('group', { name: 'Appearance' });
    for (const option of Object.keys(labels) as ThemeChoice[])
      expect(await appearance.getByRole('radio', { name: labels[option] }).isChecked()).toBe(
        option === choice,
      );
    const shownTheme = await page.evaluate(() => ({
      theme: document.documentElement.dataset.theme ?? null,
      background: getComputedStyle(document.documentElement).backgroundColor,
      stored: localStorage.getItem('theme'),
    }));
    // Shown at once, and kept for the next visit; "system" is no choice kept at all.
    expect(shownTheme).toEqual({
      theme: choice === 'system' ? null : choice,
      background: backgrounds[choice === 'system' ? 'dark' : choice],
      stored: choice === 'system' ? null : choice,
    });
  },
};
