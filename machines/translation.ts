import { assertEvent, assign, fromCallback, fromPromise, setup, spawnChild } from 'xstate';

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

/**
 * Whether `language` is the source language: a regional English (en-US, en-GB) is English, shown as
 * written with no translation asked for. The one rule the machine, the screens and `t` all follow.
 */
export const isSourceLanguage = (language: string) => language.split('-')[0].toLowerCase() === sourceLanguage;

export const translationMachine = setup({
  types: {
    context: {} as TranslationContext,
    events: {} as TranslationEvent,
    input: {} as { language: string },
  },
  actors: {
    readCache: fromPromise<Record<string, string>, { language: string }>(async () => {
      throw new Error('readCache is provided by the app');
    }),
    /** Asks the translate call for one text; answers TRANSLATED or NOT_TRANSLATED. */
    translateText: fromCallback<TranslationEvent, { text: string; language: string }>(() => {
      throw new Error('translateText is provided by the app');
    }),
    writeCache: fromPromise<void, { records: TranslationRecord[] }>(async () => {
      throw new Error('writeCache is provided by the app');
    }),
  },
  guards: {
    isSourceLanguage: ({ context }) => isSourceLanguage(context.language),
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
    /** Effect the app provides: logs the failure (`event.error`), if the event carries one. */
    logError: () => {
      throw new Error('logError is provided by the app');
    },
    assignCache: assign((_, { translations }: { translations: Record<string, string> }) => ({
      translations,
    })),
    markPending: assign({
      pending: ({ context, event }) => {
        assertEvent(event, 'TRANSLATE');
        return [...context.pending, event.text];
      },
    }),
    fetchTranslation: spawnChild('translateText', {
      id: ({ event }) => `translate:${(event as { text: string }).text}`,
      input: ({ context, event }) => ({ text: (event as { text: string }).text, language: context.language }),
    }),
    keepTranslation: assign(({ context, event }) => {
      assertEvent(event, 'TRANSLATED');
      return {
        translations: { ...context.translations, [event.text]: event.translation },
        pending: context.pending.filter((text) => text !== event.text),
        unwritten: [
          ...context.unwritten,
          { text: event.text, language: context.language, translation: event.translation },
        ],
      };
    }),
    keepSource: assign(({ context, event }) => {
      assertEvent(event, 'NOT_TRANSLATED');
      return {
        pending: context.pending.filter((text) => text !== event.text),
        untranslatable: [...context.untranslatable, event.text],
      };
    }),
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
          actions: 'logError',
        },
      },
    },
    ready: {
      description:
        'Answers from memory and asks for each unknown text once; new translations are written to IndexedDB in batches.',
      on: {
        TRANSLATE: {
          guard: 'isUnknown',
          actions: ['markPending', 'fetchTranslation'],
        },
        TRANSLATED: {
          actions: 'keepTranslation',
        },
        NOT_TRANSLATED: {
          actions: ['keepSource', 'logError'],
        },
      },
      initial: 'idle',
      states: {
        idle: {
          description: 'Nothing to write.',
          on: { TRANSLATED: { target: 'gathering', actions: 'keepTranslation' } },
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
                actions: 'logError',
              },
              {
                target: 'idle',
                actions: 'logError',
              },
            ],
          },
        },
      },
    },
  },
});
