import { setTimeout as delay } from 'node:timers/promises';
import type { Provider, ReplyRequest } from '../../providers/types';
import { ProviderError } from '../../providers/types';
import type { Translator } from '../../translation/translator';
import { calculatorReply } from './calculator';
import { Eliza } from './eliza/eliza';
import { librarianReply } from './librarian';

/** Streams a finished reply word by word, the way a model would, and stops when asked. */
async function* stream(reply: string, signal: AbortSignal, pauseMs: number): AsyncIterable<string> {
  const pieces = reply.match(/\S+\s*/g) ?? [reply];
  for (const piece of pieces) {
    if (signal.aborted) return;
    yield piece;
    if (pauseMs > 0) await delay(pauseMs, undefined, { signal }).catch(() => {});
  }
}

/** How many earlier user turns are replayed: enough for her memory, bounded for long conversations. */
const elizaReplayTurns = 40;

/** ELIZA keeps no state between requests: the earlier user turns are replayed to restore her memory. */
function elizaReply({ history, text }: ReplyRequest): string {
  const eliza = new Eliza();
  const said = history.filter((turn) => turn.role === 'user').slice(-elizaReplayTurns);
  for (const turn of said) eliza.reply(turn.text);
  return eliza.reply(text);
}

const translateRequest = /^\s*translate\s+(?:this\s+)?(?:in)?to\s+([\p{L}-]+)\s*:\s*([\s\S]+)$/iu;
const languageNames: Record<string, string> = {
  arabic: 'ar',
  chinese: 'zh',
  dutch: 'nl',
  french: 'fr',
  german: 'de',
  hebrew: 'he',
  italian: 'it',
  japanese: 'ja',
  polish: 'pl',
  portuguese: 'pt',
  spanish: 'es',
  ukrainian: 'uk',
  english: 'en',
};

/**
 * The translator: a phrase of Parley's own screens from the catalogs (offline, between the 12 built-in
 * languages and English), else the translation memory, else the translation provider. Hints, and the
 * plain answer that a provider is needed, cost nothing.
 */
async function translatorReply(translator: Translator, request: ReplyRequest): Promise<string> {
  const match = translateRequest.exec(request.text);
  if (!match) {
    request.waive();
    return 'Tell me what to translate like this: *translate to German: Welcome to Parley*.';
  }
  const wanted = match[1].toLowerCase();
  const language = languageNames[wanted] ?? (/^[a-z]{2,3}(-[a-z0-9]+)?$/.test(wanted) ? wanted : null);
  if (!language) {
    request.waive();
    return `I don't know the language “${match[1]}”. Try one of: ${Object.keys(languageNames).join(', ')}.`;
  }
  const source = match[2].trim();
  const phrase = translator.phrase(source, language);
  if (phrase) return phrase;
  const result = translator.hasProvider
    ? await translator.translate(source, language)
    : await translator.lookup(source, language);
  if (result.translated) return result.text;
  if (!translator.hasProvider) {
    request.waive();
    return "Without a translation provider I can only translate the phrases of Parley's own screens, such as *Log in* or *Welcome to Parley*, between its 13 languages. Your administrator can configure one (LibreTranslate or a model server) to translate any text. This answer is free.";
  }
  throw new ProviderError(
    'No translation is available for this text right now. Please try again later.',
    'TRANSLATION_UNAVAILABLE',
  );
}

/**
 * What is left to write of a built-in bot's reply: all of it, or for a reply being continued what
 * follows the part written before (the same words: these bots answer the same question the same
 * way). A continuation that adds nothing (the reply had ended, or its answer changed since) is free.
 */
function rest(reply: string, { continuing, waive }: ReplyRequest): string {
  if (continuing === undefined) return reply;
  const left = reply.startsWith(continuing) ? reply.slice(continuing.length) : '';
  if (!left) waive();
  return left;
}

/** The offline bots: they run inside the server, so Parley works with no network at all. */
export function builtinProvider(translator: Translator, pauseMs: number): Provider {
  return async function* (request) {
    const engine = request.config.engine;
    const reply =
      engine === 'eliza'
        ? elizaReply(request)
        : engine === 'calculator'
          ? calculatorReply(request.text)
          : engine === 'translator'
            ? await translatorReply(translator, request)
            : engine === 'librarian'
              ? librarianReply(request)
              : null;
    if (reply === null) throw new ProviderError('This bot is not set up correctly.', 'BOT_MISCONFIGURED');
    const left = rest(reply, request);
    if (left) yield* stream(left, request.signal, pauseMs);
  };
}
