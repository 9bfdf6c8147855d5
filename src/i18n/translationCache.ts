import type { DBSchema, IDBPDatabase } from 'idb';

/** One cached translation (seed-spec §3: text, language, translation). */
export interface TranslationRecord {
  text: string;
  language: string;
  translation: string;
}

interface TranslationCacheSchema extends DBSchema {
  translations: {
    key: [string, string];
    value: TranslationRecord;
    indexes: { language: string };
  };
}

/** The browser database of seed-spec §9: TranslationCache, store translations, key [text, language], version 1. */
export function createTranslationCache() {
  let database: Promise<IDBPDatabase<TranslationCacheSchema>> | undefined;
  const open = () => {
    // idb loads with the first use: a visitor reading English never needs it, and the landing page is lighter.
    database ??= import('idb').then(({ openDB }) =>
      openDB<TranslationCacheSchema>('TranslationCache', 1, {
        upgrade(db) {
          const store = db.createObjectStore('translations', { keyPath: ['text', 'language'] });
          store.createIndex('language', 'language');
        },
      }),
    );
    // A failed open is retried on the next call rather than cached forever.
    database.catch(() => {
      database = undefined;
    });
    return database;
  };

  return {
    /** Every cached translation of one language, read in a single transaction before the first paint. */
    async readLanguage(language: string): Promise<Map<string, string>> {
      const records = await (await open()).getAllFromIndex('translations', 'language', language);
      return new Map(records.map((record) => [record.text, record.translation]));
    },
    /** Writes a batch of new translations in one transaction. */
    async write(records: TranslationRecord[]): Promise<void> {
      if (records.length === 0) return;
      const transaction = (await open()).transaction('translations', 'readwrite');
      await Promise.all([...records.map((record) => transaction.store.put(record)), transaction.done]);
    },
  };
}

export type TranslationCache = ReturnType<typeof createTranslationCache>;
