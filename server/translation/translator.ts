import type { Db } from '../db/database';
import { loadCatalogs } from './catalogs';
import { piecesOf } from './pieces';

/**
 * What one request to the provider carries at most: a longer text goes in pieces of this size, cut
 * between paragraphs or sentences (LibreTranslate servers limit a request, often to 2,000 or 5,000
 * characters, and a model translates a short text more faithfully).
 */
const pieceLength = 2000;
/** Pieces asked of the provider at once, for one text. */
const piecesAtOnce = 4;
/**
 * The memory's key is the text itself, in a B-tree index of at most 2,704 bytes an entry: a piece
 * longer than this (in UTF-8) is translated but not remembered.
 */
const rememberedBytes = 2500;

export interface Translation {
  text: string;
  translated: boolean;
}
export interface Translator {
  /** Whether a provider is configured: without one, only the memory and the catalogs answer. */
  readonly hasProvider: boolean;
  /** The memory and the catalogs only: free, and open to anyone. */
  lookup(text: string, language: string): Promise<Translation>;
  /**
   * The offline phrase memory: a phrase of the UI catalogs, in any of their languages (English
   * included), in `language`; null when the catalogs do not have it.
   */
  phrase(text: string, language: string): string | null;
  /** `lookup`, then the provider. */
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
  options: { memorySize: number; log: (message: string, error: unknown) => void },
): Translator {
  const catalogs = loadCatalogs();
  const normal = (text: string) => text.trim().toLocaleLowerCase();
  // Every phrase of every catalog, and the English ones themselves, leading back to its English text.
  const english = new Map<string, string>();
  for (const entries of catalogs.values()) {
    for (const [source, translation] of Object.entries(entries)) {
      english.set(normal(source), source);
      if (!english.has(normal(translation))) english.set(normal(translation), source);
    }
  }
  const lookup = async (text: string, language: string): Promise<Translation> => {
    const code = language.toLowerCase();
    const base = code.split('-')[0];
    if (base === 'en') return { text, translated: false };
    const { rows } = await db.query<{ language: string; translation: string; stale: boolean }>(
      `select language, translation, used_at < now() - interval '1 minute' as stale
       from translations where text = $1 and language = any($2)`,
      [text, [code, base]],
    );
    const remembered = rows[0];
    if (remembered) {
      // Marking a hit as used costs a write at most once a minute per entry.
      if (remembered.stale) {
        await db.query('update translations set used_at = now() where text = $1 and language = $2', [
          text,
          remembered.language,
        ]);
      }
      return { text: remembered.translation, translated: true };
    }
    const fromCatalog = catalogs.get(code)?.[text] ?? catalogs.get(base)?.[text];
    return fromCatalog ? { text: fromCatalog, translated: true } : { text, translated: false };
  };
  return {
    hasProvider: provider !== null,
    lookup,
    phrase(text, language) {
      const source = english.get(normal(text));
      const base = language.toLowerCase().split('-')[0];
      if (!source) return null;
      return base === 'en'
        ? source
        : (catalogs.get(language.toLowerCase())?.[source] ?? catalogs.get(base)?.[source] ?? null);
    },
    async translate(text, language) {
      const known = await lookup(text, language);
      if (known.translated || !provider || language.toLowerCase().startsWith('en')) return known;
      const code = language.toLowerCase();
      /** A piece from the memory, else from the provider (then remembered); null when it cannot. */
      const translatePiece = async (piece: string): Promise<string | null> => {
        const remembered = await lookup(piece, code);
        if (remembered.translated) return remembered.text;
        const translation = await provider(piece, code);
        if (!translation) return null;
        if (Buffer.byteLength(piece) <= rememberedBytes) {
          // Remembered, and the memory kept to its size: the least recently used go first.
          await db.query(
            'insert into translations (text, language, translation) values ($1, $2, $3) on conflict do nothing',
            [piece, code, translation],
          );
          await db.query(
            `delete from translations where (text, language) in (
               select text, language from translations order by used_at desc offset $1)`,
            [options.memorySize],
          );
        }
        return translation;
      };
      try {
        const pieces = piecesOf(text, pieceLength);
        const translated: (string | null)[] = pieces.map((piece) => (piece.translate ? null : piece.text));
        let next = 0;
        const work = async () => {
          for (let at = next++; at < pieces.length; at = next++) {
            if (!pieces[at].translate) continue;
            // One piece the provider cannot translate: neither is the text, and nothing more is asked.
            translated[at] = await translatePiece(pieces[at].text).catch((error) => {
              next = pieces.length;
              throw error;
            });
            if (translated[at] === null) next = pieces.length;
          }
        };
        await Promise.all(Array.from({ length: piecesAtOnce }, work));
        if (translated.some((part) => part === null)) return { text, translated: false };
        return { text: translated.join(''), translated: true };
      } catch (error) {
        options.log('translation provider failed', error);
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
