import { assign, setup } from 'xstate';

export const defaultLanguage = 'en';

/** English and the 12 languages with a built-in catalog: the only values the app stores. */
export const knownLanguages = [
  'en',
  'ar',
  'de',
  'es',
  'fr',
  'he',
  'it',
  'ja',
  'nl',
  'pl',
  'pt',
  'uk',
  'zh',
] as const;
export type KnownLanguage = (typeof knownLanguages)[number];

/**
 * The known language a well-formed BCP 47 tag names (`de`, `DE`, `pt-BR` → `pt`), or null for a
 * malformed tag (`en_US`, `<b>`) or a language without a catalog (`xx`, `ko`).
 */
export function knownLanguage(tag: string | null | undefined): KnownLanguage | null {
  if (!tag) return null;
  try {
    const { language } = new Intl.Locale(Intl.getCanonicalLocales(tag)[0]);
    return knownLanguages.find((known) => known === language) ?? null;
  } catch {
    // Intl throws a RangeError for a tag that is not well-formed.
    return null;
  }
}

/** The `language` query parameter of a location's search string, if any. */
export function languageFromQuery(search: string): string | null {
  const value = new URLSearchParams(search).get('language')?.trim();
  return value ? value : null;
}

export const languageMachine = setup({
  types: {
    context: {} as { language: KnownLanguage; search: string },
    input: {} as { storedLanguage: string | null; search: string },
    events: {} as { type: 'CHANGE'; language: string },
  },
  guards: {
    hasKnownQueryLanguage: ({ context }) => knownLanguage(languageFromQuery(context.search)) !== null,
    hasQueryLanguage: ({ context }) => languageFromQuery(context.search) !== null,
    isOtherKnownLanguage: ({ context, event }) =>
      knownLanguage(event.language) !== null && knownLanguage(event.language) !== context.language,
  },
  actions: {
    /** Effects the app provides: `language` in local storage, a page reload (seed-spec §1), and an
     * address without an unusable `?language=`. */
    storeLanguage: () => {
      throw new Error('storeLanguage is provided by the app');
    },
    reload: () => {
      throw new Error('reload is provided by the app');
    },
    dropLanguageParameter: () => {
      throw new Error('dropLanguageParameter is provided by the app');
    },
    /** The known language of `?language=`. */
    assignQueryLanguage: assign({
      language: ({ context }) => knownLanguage(languageFromQuery(context.search)) ?? defaultLanguage,
    }),
    /** The known language the picker chose. */
    assignChosenLanguage: assign({
      language: ({ event }) => knownLanguage(event.language) ?? defaultLanguage,
    }),
  },
}).createMachine({
  id: 'language',
  description: 'The display language: English by default, set by ?language= or the picker, then reload.',
  context: ({ input }) => ({
    // A value stored before languages were checked may be unusable: the default stands in for it.
    language: knownLanguage(input.storedLanguage) ?? defaultLanguage,
    search: input.search,
  }),
  initial: 'reading',
  states: {
    reading: {
      description: 'A known ?language= on any route wins over the stored one; any other is dropped.',
      always: [
        {
          guard: 'hasKnownQueryLanguage',
          target: 'reloading',
          actions: 'assignQueryLanguage',
        },
        { guard: 'hasQueryLanguage', target: 'ready', actions: 'dropLanguageParameter' },
        { target: 'ready' },
      ],
    },
    ready: {
      description: 'The page is shown in the language; a change to another known one stores it and reloads.',
      on: {
        CHANGE: {
          guard: 'isOtherKnownLanguage',
          target: 'reloading',
          actions: 'assignChosenLanguage',
        },
      },
    },
    reloading: {
      description: 'Stores the new language and reloads the page into it.',
      entry: ['storeLanguage', 'reload'],
    },
  },
});
