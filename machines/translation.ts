import { assign, fromCallback, fromPromise, setup, spawnChild } from 'xstate';

export interface TranslationRecord {
  text: string;
  language: string;
  translation: string;
}

export interface TranslationContext {
  language: string;
  /** Known translations of this language, by source text. */
  translations: Record<string, string>;
  /** Texts asked of the server and not answered yet: one request per text, however many ask. */
  pending: string[];
  /** Texts the server could not translate: shown as they are, never cached, not asked again. */
  untranslatable: string[];
  /** New translations waiting to be written to the cache in one batch. */
  unwritten: TranslationRecord[];
  /** The batch being written now. */
  writing: TranslationRecord[];
}

export type TranslationEvent =
  | { type: 'TRANSLATE'; text: string }
  | { type: 'TRANSLATED'; text: string; translation: string }
  | { type: 'NOT_TRANSLATED'; text: string; error?: unknown };

/** English is never translated (seed-spec §1). */
export const sourceLanguage = 'en';

export const translationMachine = setup({
  types: {
    context: {} as TranslationContext,
    events: {} as TranslationEvent,
    input: {} as { language: string },
  },
  actors: {
    readCache: fromPromise<Record<string, string>, { language: string }>(async () => ({})),
    /** Asks the translate call for one text; answers TRANSLATED or NOT_TRANSLATED. */
    translateText: fromCallback<TranslationEvent, { text: string; language: string }>(
      ({ input, sendBack }) => {
        sendBack({ type: 'NOT_TRANSLATED', text: input.text });
      },
    ),
    writeCache: fromPromise<void, { records: TranslationRecord[] }>(async () => {}),
  },
  guards: {
    isSourceLanguage: ({ context }) => context.language.split('-')[0].toLowerCase() === sourceLanguage,
    isUnknown: ({ context, event }) =>
      event.type === 'TRANSLATE' &&
      event.text.trim() !== '' &&
      !(event.text in context.translations) &&
      !context.pending.includes(event.text) &&
      !context.untranslatable.includes(event.text),
    hasUnwritten: ({ context }) => context.unwritten.length > 0,
  },
  delays: {
    /** New translations are gathered this long and written in one transaction. */
    writeBatch: 250,
  },
  actions: {
    logError: (_, _params: { error: unknown }) => {},
    assignCache: assign({
      translations: (_, params: { translations: Record<string, string> }) => params.translations,
    }),
    markPending: assign({
      pending: ({ context }, params: { text: string }) => [...context.pending, params.text],
    }),
    fetchTranslation: spawnChild('translateText', {
      id: ({ event }) => `translate:${(event as { text: string }).text}`,
      input: ({ context, event }) => ({ text: (event as { text: string }).text, language: context.language }),
    }),
    keepTranslation: assign(({ context }, params: { text: string; translation: string }) => ({
      translations: { ...context.translations, [params.text]: params.translation },
      pending: context.pending.filter((text) => text !== params.text),
      unwritten: [
        ...context.unwritten,
        { text: params.text, language: context.language, translation: params.translation },
      ],
    })),
    keepSource: assign(({ context }, params: { text: string }) => ({
      pending: context.pending.filter((text) => text !== params.text),
      untranslatable: [...context.untranslatable, params.text],
    })),
    takeUnwritten: assign(({ context }) => ({ writing: context.unwritten, unwritten: [] })),
  },
}).createMachine({
  id: 'translation',
  description: 'UI text in the display language: memory, then IndexedDB, then the translate call.',
  context: ({ input }) => ({
    language: input.language,
    translations: {},
    pending: [],
    untranslatable: [],
    unwritten: [],
    writing: [],
  }),
  initial: 'deciding',
  states: {
    deciding: {
      description: 'English needs nothing; any other language is loaded from the cache first.',
      always: [{ guard: 'isSourceLanguage', target: 'bypassed' }, { target: 'preloading' }],
    },
    bypassed: { description: 'English: every text is shown as it is.' },
    preloading: {
      description: "Reads the language's cached translations in one go, before the first paint.",
      invoke: {
        id: 'readCache',
        src: 'readCache',
        input: ({ context }) => ({ language: context.language }),
        onDone: {
          target: 'ready',
          actions: { type: 'assignCache', params: ({ event }) => ({ translations: event.output }) },
        },
        onError: {
          target: 'ready',
          actions: { type: 'logError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    ready: {
      description: 'Answers from memory and fetches each missing text once.',
      type: 'parallel',
      states: {
        lookups: {
          description: 'Each unknown text is asked for once; the answers arrive one by one.',
          initial: 'serving',
          states: {
            serving: {
              description: 'Takes lookups and their answers.',
              on: {
                TRANSLATE: {
                  guard: 'isUnknown',
                  actions: [
                    { type: 'markPending', params: ({ event }) => ({ text: event.text }) },
                    'fetchTranslation',
                  ],
                },
                TRANSLATED: {
                  actions: {
                    type: 'keepTranslation',
                    params: ({ event }) => ({ text: event.text, translation: event.translation }),
                  },
                },
                NOT_TRANSLATED: {
                  actions: [
                    { type: 'keepSource', params: ({ event }) => ({ text: event.text }) },
                    { type: 'logError', params: ({ event }) => ({ error: event.error }) },
                  ],
                },
              },
            },
          },
        },
        writeBack: {
          description: 'New translations are written to IndexedDB in batches.',
          initial: 'idle',
          states: {
            idle: {
              description: 'Nothing to write.',
              on: { TRANSLATED: 'gathering' },
            },
            gathering: {
              description: 'Waits briefly so that one transaction writes many translations.',
              after: { writeBatch: 'writing' },
            },
            writing: {
              description: 'Writes the batch; a failure is only logged.',
              entry: 'takeUnwritten',
              invoke: {
                id: 'writeCache',
                src: 'writeCache',
                input: ({ context }) => ({ records: context.writing }),
                onDone: [{ guard: 'hasUnwritten', target: 'gathering' }, { target: 'idle' }],
                onError: [
                  {
                    guard: 'hasUnwritten',
                    target: 'gathering',
                    actions: { type: 'logError', params: ({ event }) => ({ error: event.error }) },
                  },
                  {
                    target: 'idle',
                    actions: { type: 'logError', params: ({ event }) => ({ error: event.error }) },
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
});
