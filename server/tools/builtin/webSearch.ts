import type { Citation } from '../../providers/types';
import type { StoredSearch } from '../../search/store';
import { providerFetch, RefusedAddress } from '../../security/outbound';
import { ToolError } from '../types';
import { stringArgument } from './arguments';
import { readLimited } from './fetchUrl';
import { htmlToText } from './html';

/** The most results one search gives the model (and cites). */
export const resultsPerSearch = 6;
/** The most of a search engine's answer read: a results page is a few kilobytes. */
const answerLimitBytes = 2 * 1024 * 1024;

/** One result of a search: what the model reads and the reply cites. */
interface WebResult {
  title: string;
  url: string;
  snippet: string;
}

/** What a search needs beyond its query: the organization's engine (its key sealed) and the server's rules. */
export interface WebSearchSetup {
  stored: StoredSearch;
  tenant: string;
  unseal: (sealed: string, context: string) => string;
  timeoutMs: number;
  braveUrl: string;
  allowPrivate: boolean;
}

/**
 * The pages one reply's searches found, as its citations: numbered after the passages the reply cites
 * already, a page found twice keeping its number.
 */
export class WebSources {
  readonly citations: Citation[] = [];
  private next: number;
  constructor(first: number) {
    this.next = first;
  }

  /** The pages a continued reply cited already: kept, numbered as they were. */
  keep(earlier: Citation[]) {
    for (const citation of earlier) {
      this.citations.push(citation);
      this.next = Math.max(this.next, citation.n + 1);
    }
  }

  add(results: WebResult[]): Citation[] {
    return results.map((result) => {
      const known = this.citations.find((citation) => citation.url === result.url);
      if (known) return known;
      const citation = {
        n: this.next++,
        name: result.title,
        url: result.url,
        snippet: result.snippet,
      };
      this.citations.push(citation);
      return citation;
    });
  }
}

/** Markup and runs of white space out (Brave marks the matched words with <strong>), at most `max` characters. */
function plain(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const text = htmlToText(value).text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The results that are web pages (http or https), at most `resultsPerSearch`; null when `items` is no list. */
function resultsOf(items: unknown, snippetKey: 'content' | 'description'): WebResult[] | null {
  if (!Array.isArray(items)) return null;
  return items
    .flatMap((item) => {
      const { url, title } = (item ?? {}) as { url?: unknown; title?: unknown };
      if (typeof url !== 'string' || !URL.canParse(url)) return [];
      if (!['http:', 'https:'].includes(new URL(url).protocol)) return [];
      const snippet = plain((item as Record<string, unknown>)[snippetKey], 500);
      return [{ url, title: plain(title, 200) || url, snippet }];
    })
    .slice(0, resultsPerSearch);
}

/** SearXNG's JSON: `{ results: [{ title, url, content }] }`. */
const searxngResults = (body: unknown) => resultsOf((body as { results?: unknown })?.results, 'content');

/** Brave's: `{ type: 'search', web: { results: [{ title, url, description }] } }`; no `web` when nothing matched. */
function braveResults(body: unknown): WebResult[] | null {
  const answer = body as { type?: unknown; web?: { results?: unknown } } | null;
  if (answer?.type === 'search' && answer.web === undefined) return [];
  return resultsOf(answer?.web?.results, 'description');
}

/** Why an engine said no, in words an admin can act on. */
function refusal(setup: WebSearchSetup, name: string, status: number): string {
  if (setup.stored.engine === 'searxng' && status === 403)
    return `${name} refused the search (HTTP 403): its JSON format may be off (search.formats in its settings.yml must list json).`;
  if (status === 429) return `${name} is rate-limited (HTTP 429): try again later.`;
  if (status >= 500) return `${name} failed (HTTP ${status}).`;
  return `${name} refused the search (HTTP ${status}).`;
}

/** Asks the engine; its answer read within the time allowed. */
async function ask(setup: WebSearchSetup, query: string, signal: AbortSignal): Promise<Response> {
  const { stored } = setup;
  if (stored.engine === 'searxng') {
    const address = `${stored.url}/search?${new URLSearchParams({ q: query, format: 'json' })}`;
    // An address an admin typed: through the providers' guard against private networks.
    return providerFetch(
      address,
      { method: 'GET', headers: { accept: 'application/json' }, signal },
      setup.allowPrivate,
    );
  }
  let key: string;
  try {
    key = setup.unseal(stored.key, setup.tenant);
  } catch {
    throw new ToolError('The Brave Search key can no longer be read: an admin must enter it again.');
  }
  const address = `${setup.braveUrl}?${new URLSearchParams({ q: query, count: String(resultsPerSearch) })}`;
  // Brave's address is the operator's (BRAVE_SEARCH_URL, by default Brave's own), like OPENAI_BASE_URL.
  return fetch(address, {
    headers: { accept: 'application/json', 'x-subscription-token': key },
    signal,
    redirect: 'manual',
  });
}

/** The results of `query` on the organization's engine; a ToolError saying what went wrong otherwise. */
async function searchWeb(setup: WebSearchSetup, query: string, signal: AbortSignal): Promise<WebResult[]> {
  const name = setup.stored.engine === 'searxng' ? 'The SearXNG instance' : 'Brave Search';
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), setup.timeoutMs);
  try {
    const response = await ask(setup, query, AbortSignal.any([signal, timer.signal]));
    const { bytes } = await readLimited(response.body, answerLimitBytes);
    if (!response.ok) throw new ToolError(refusal(setup, name, response.status));
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new ToolError(`${name} sent an answer that is not JSON.`);
    }
    const results = setup.stored.engine === 'searxng' ? searxngResults(body) : braveResults(body);
    if (!results) throw new ToolError(`${name} sent an answer without search results.`);
    return results;
  } catch (error) {
    if (error instanceof ToolError || signal.aborted) throw error;
    if (timer.signal.aborted)
      throw new ToolError(`${name} did not answer within ${setup.timeoutMs / 1000} s.`);
    const refused = error instanceof RefusedAddress ? error : (error as { cause?: unknown }).cause;
    if (refused instanceof RefusedAddress)
      throw new ToolError(
        `${name} is on a private or local network (${refused.host}), which may not be reached.`,
      );
    throw new ToolError(`${name} cannot be reached.`);
  } finally {
    clearTimeout(timeout);
  }
}

/**
 * `web_search`: the organization's engine's results for `query` (title, address, snippet), each
 * numbered as the reply cites it and kept in `sources` (the reply's citations). The model reads a
 * page with `fetch_url` (through the same guard) when a snippet is not enough.
 */
export function webSearchTool(setup: WebSearchSetup, sources: WebSources) {
  return async (args: Record<string, unknown>, signal: AbortSignal): Promise<string> => {
    const query = stringArgument(args, 'query', 'web_search').trim().slice(0, 400);
    const results = await searchWeb(setup, query, signal);
    if (!results.length) return `The web search found nothing for "${query}".`;
    return [
      `Web results for "${query}". Cite a result you use as [n]; fetch_url reads a page when its snippet is not enough.`,
      ...sources
        .add(results)
        .map((citation) => `[${citation.n}] ${citation.name}\nURL: ${citation.url}\n${citation.snippet}`),
    ].join('\n\n');
  };
}
