import { assign, setup } from 'xstate';

export const defaultLanguage = 'en';

/** The `language` query parameter of a location's search string, if any. */
export function languageFromQuery(search: string): string | null {
  const value = new URLSearchParams(search).get('language')?.trim();
  return value ? value : null;
}

export const languageMachine = setup({
  types: {
    context: {} as { language: string; search: string },
    input: {} as { storedLanguage: string | null; search: string },
    events: {} as { type: 'CHANGE'; language: string },
  },
  guards: {
    hasQueryLanguage: ({ context }) => languageFromQuery(context.search) !== null,
    isOtherLanguage: ({ context, event }) => event.language !== context.language,
  },
  actions: {
    /** Effects the app provides: `language` in local storage, and a page reload (seed-spec §1). */
    storeLanguage: (_, _params: { language: string }) => {},
    reload: () => {},
    assignLanguage: assign({ language: (_, params: { language: string }) => params.language }),
  },
}).createMachine({
  id: 'language',
  description: 'The display language: English by default, set by ?language= or the picker, then reload.',
  context: ({ input }) => ({ language: input.storedLanguage || defaultLanguage, search: input.search }),
  initial: 'reading',
  states: {
    reading: {
      description: 'A ?language= on any route wins over the stored language.',
      always: [
        {
          guard: 'hasQueryLanguage',
          target: 'reloading',
          actions: [
            {
              type: 'assignLanguage',
              params: ({ context }) => ({ language: languageFromQuery(context.search) ?? '' }),
            },
            {
              type: 'storeLanguage',
              params: ({ context }) => ({ language: languageFromQuery(context.search) ?? '' }),
            },
            'reload',
          ],
        },
        { target: 'ready' },
      ],
    },
    ready: {
      description: 'The page is shown in the language; a change stores it and reloads.',
      on: {
        CHANGE: {
          guard: 'isOtherLanguage',
          target: 'reloading',
          actions: [
            { type: 'assignLanguage', params: ({ event }) => ({ language: event.language }) },
            { type: 'storeLanguage', params: ({ event }) => ({ language: event.language }) },
            'reload',
          ],
        },
      },
    },
    reloading: { description: 'The page reloads into the new language.' },
  },
});
