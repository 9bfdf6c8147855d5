import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { languageMachine } from '../../../../machines/language';
import type { ModelEvent, PathWorld } from '../runner';

/** What landing says in each language the paths reach: the picker's label and the way in. */
const words: Record<string, { language: string; register: string }> = {
  en: { language: 'Language', register: 'Register' },
  fr: { language: 'Langue', register: 'S’inscrire' },
  de: { language: 'Sprache', register: 'Registrieren' },
};

/**
 * The display language on landing. Every path opens it with an unusable `?language=xx`, which only
 * leaves the address. A person changes the language with the picker (Apply) or with a known
 * `?language=` in the address; either stores it and reloads the page into it.
 */
export const languageBrowserModel = {
  name: 'language',
  chainWalks: true,
  machine: languageMachine,
  input: { storedLanguage: null, search: '?language=xx' },
  events: [
    { type: 'CHANGE', language: 'fr' },
    // Typed into the address: the page that opens reads it, stores it and reloads (`reading` → `reloading`).
    { type: 'CHANGE', language: 'de', by: 'address' },
  ] as ModelEvent[],
  // Each language the page can be reloaded into is a state of its own.
  serialize: (snapshot: AnyMachineSnapshot) => `${String(snapshot.value)} ${snapshot.context.language}`,
  start: async (world: PathWorld) => {
    await world.page.goto(`${world.server.url}/landing?language=xx`);
  },
  perform: async (world: PathWorld, event: ModelEvent) => {
    const { page } = world;
    if (event.by === 'address') {
      await page.goto(`${world.server.url}/landing?language=${event.language}`);
      return;
    }
    // On a phone the picker is behind the header's Menu.
    if (world.viewport.name === 'phone')
      await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
    const picker = page.getByRole('banner').getByLabel(words.en.language);
    await picker.selectOption(event.language as string);
    await page.getByRole('banner').getByRole('button', { name: 'Apply' }).click();
  },
  expectScreen: async (world: PathWorld, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    const language = snapshot.context.language as string;
    const url = new URL(page.url());
    // No ?language= stays in the address: a known one is stored, an unusable one dropped.
    expect(`${url.pathname}${url.search}`).toBe('/landing');
    const shown = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      stored: localStorage.getItem('language'),
    }));
    expect(shown).toEqual({ lang: language, stored: snapshot.matches('reloading') ? language : null });
    const banner = page.getByRole('banner');
    expect(await banner.getByLabel(words[language].language, { exact: true }).inputValue()).toBe(language);
    // Nothing to apply until another language is picked.
    expect(
      await banner
        .getByRole('button')
        .filter({ hasText: /Apply|Appliquer|Übernehmen/ })
        .count(),
    ).toBe(0);
    expect(
      await page
        .getByRole('main')
        .getByRole('link', { name: words[language].register, exact: true })
        .isVisible(),
    ).toBe(true);
  },
};
