import type { Db } from '../db/database';
import { loadCatalogs } from './catalogs';

export interface Translation {
  text: string;
  translated: boolean;
}
export interface Translator {
  translate(text: string, language: string): Promise<Translation>;
}
/** A machine-translation service: answers the translation, or null when it cannot. */
export type TranslationProvider = (text: string, language: string) => Promise<string | null>;

/**
 * Translation memory first, then the built-in catalogs, then the optional provider, whose answers
 * are remembered. When none can translate, the source text comes back with `translated: false`.
 */
export function createTranslator(
  db: Db,
  provider: TranslationProvider | null,
  log: (message: string, error: unknown) => void,
): Translator {
  const catalogs = loadCatalogs();
  return {
    async translate(text, language) {
      const code = language.toLowerCase();
      const base = code.split('-')[0];
      if (base === 'en') return { text, translated: false };
      const { rows } = await db.query<{ translation: string }>(
        'select translation from translations where text = $1 and language = any($2)',
        [text, [code, base]],
      );
      if (rows[0]) return { text: rows[0].translation, translated: true };
      const fromCatalog = catalogs.get(code)?.[text] ?? catalogs.get(base)?.[text];
      if (fromCatalog) return { text: fromCatalog, translated: true };
      if (!provider) return { text, translated: false };
      try {
        const translation = await provider(text, code);
        if (!translation) return { text, translated: false };
        await db.query(
          'insert into translations (text, language, translation) values ($1, $2, $3) on conflict do nothing',
          [text, code, translation],
        );
        return { text: translation, translated: true };
      } catch (error) {
        log('translation provider failed', error);
        return { text, translated: false };
      }
    },
  };
}

/** LibreTranslate's `/translate` API. */
export function libreTranslate(baseUrl: string): TranslationProvider {
  return async (text, language) => {
    const response = await fetch(new URL('/translate', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: text, source: 'en', target: language.split('-')[0], format: 'text' }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`LibreTranslate answered ${response.status}`);
    const body = (await response.json()) as { translatedText?: string };
    return body.translatedText?.trim() || null;
  };
}
