import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page a double finds: SearXNG's `content` and Brave's `description` are its snippet. */
export interface FoundPage {
  title: string;
  url: string;
  snippet: string;
}

/**
 * How a double answers a query: its pages, or one of the ways an engine fails — `hang` (headers never
 * sent), `garbage` (an HTML page with status 200), `fail` (HTTP 500), `odd` (JSON without results).
 */
export type Answer = FoundPage[] | 'hang' | 'garbage' | 'fail' | 'odd';

export interface SearchRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface SearchDouble {
  /** SearXNG: the instance's address (an admin's `url`); Brave: the web search endpoint (BRAVE_SEARCH_URL). */
  url: string;
  /** Every request, in order (any path). */
  requests: SearchRequest[];
  /** Sets what the next queries find: by default two pages of example.org naming the query. */
  answer: (next: (query: string) => Answer) => void;
  close: () => Promise<void>;
}

const pagesFor = (query: string): FoundPage[] => [
  {
    title: `${query} — an overview`,
    url: `https://example.org/${encodeURIComponent(query)}`,
    snippet: `Everything about ${query}, explained.`,
  },
  { title: `More on ${query}`, url: 'https://example.org/more', snippet: `Further reading on ${query}.` },
];

/** A small HTTP server for a double: its requests recorded, hanging responses ended when it closes. */
async function serve(
  handle: (request: IncomingMessage, response: ServerResponse, url: URL) => void,
): Promise<{ server: Server; base: string; requests: SearchRequest[]; close: () => Promise<void> }> {
  const requests: SearchRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://double');
    requests.push({ path: url.pathname, query: url.searchParams, headers: request.headers });
    open.add(response);
    response.on('close', () => open.delete(response));
    handle(request, response, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    base,
    requests,
    close: async () => {
      for (const response of open) response.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** The failures both doubles share; true when one was sent (or, hanging, nothing will be). */
function failed(response: ServerResponse, answer: Answer): boolean {
  if (answer === 'hang') return true;
  if (answer === 'garbage') {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Not JSON at all');
    return true;
  }
  if (answer === 'fail') {
    response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    return true;
  }
  return false;
}

/**
 * A SearXNG instance, speaking its JSON API: `GET /search?q=…&format=json` answers `{ query,
 * number_of_results, results: [{ url, title, content, engine, … }], answers, suggestions, … }`; without
 * `format=json` it refuses with 403, as an instance whose settings do not list the json format does.
 * Any other path is 404, and serves `/private` (a page a result may point to, on this loopback address).
 */
export async function startSearxngDouble(): Promise<SearchDouble> {
  let answerFor: (query: string) => Answer = pagesFor;
  const double = await serve((_request, response, url) => {
    if (url.pathname === '/private')
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end('secret');
    if (url.pathname !== '/search') return void response.writeHead(404).end();
    if (url.searchParams.get('format') !== 'json')
      return void response.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden');
    const query = url.searchParams.get('q') ?? '';
    const answer = answerFor(query);
    if (failed(response, answer)) return;
    if (answer === 'odd') return json(response, 200, { query, message: 'rate limited upstream' });
    const pages = answer as FoundPage[];
    json(response, 200, {
      query,
      number_of_results: pages.length,
      results: pages.map((page, index) => ({
        url: page.url,
        title: page.title,
        content: page.snippet,
        engine: 'duckduckgo',
        parsed_url: ['https', new URL(page.url).host, new URL(page.url).pathname, '', '', ''],
        template: 'default.html',
        engines: ['duckduckgo', 'brave'],
        positions: [index + 1],
        score: 2 / (index + 1),
        category: 'general',
      })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    });
  });
  return {
    url: double.base,
    requests: double.requests,
    answer: (next) => {
      answerFor = next;
    },
    close: double.close,
  };
}

/**
 * The Brave Search API's web search, in its wire format: `GET /res/v1/web/search?q=…&count=…` with
 * `X-Subscription-Token` answers `{ type: 'search', query, web: { type: 'search', results: [{ title,
 * url, description (matched words in <strong>), … }] } }` (no `web` when nothing matched); a token
 * other than `keys` is refused with 422, as Brave refuses an invalid one.
 */
export async function startBraveDouble(keys: string[]): Promise<SearchDouble> {
  let answerFor: (query: string) => Answer = pagesFor;
  const path = '/res/v1/web/search';
  const double = await serve((request, response, url) => {
    if (url.pathname === '/private')
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end('secret');
    if (url.pathname !== path) return void response.writeHead(404).end();
    const token = request.headers['x-subscription-token'];
    if (typeof token !== 'string' || !keys.includes(token))
      return json(response, 422, {
        type: 'ErrorResponse',
        error: {
          id: 'c7b3a2e1',
          status: 422,
          code: 'SUBSCRIPTION_TOKEN_INVALID',
          detail: 'The provided subscription token is invalid.',
          meta: { component: 'authentication' },
        },
        time: Math.floor(Date.now() / 1000),
      });
    const query = url.searchParams.get('q') ?? '';
    const answer = answerFor(query);
    if (failed(response, answer)) return;
    if (answer === 'odd') return json(response, 200, { type: 'ErrorResponse', time: 0 });
    const pages = (answer as FoundPage[]).slice(0, Number(url.searchParams.get('count') ?? 20));
    const word = query.split(/\s+/)[0] ?? '';
    json(response, 200, {
      type: 'search',
      query: { original: query, show_strict_warning: false, is_navigational: false, spellcheck_off: true },
      mixed: { type: 'mixed', main: pages.map((_, index) => ({ type: 'web', index, all: false })) },
      ...(pages.length
        ? {
            web: {
              type: 'search',
              family_friendly: true,
              results: pages.map((page) => ({
                title: page.title,
                url: page.url,
                is_source_local: false,
                is_source_both: false,
                // Brave marks the words that matched.
                description: word ? page.snippet.replace(word, `<strong>${word}</strong>`) : page.snippet,
                language: 'en',
                family_friendly: true,
                type: 'search_result',
                subtype: 'generic',
                meta_url: {
                  scheme: 'https',
                  netloc: new URL(page.url).host,
                  hostname: new URL(page.url).hostname,
                  path: new URL(page.url).pathname,
                },
              })),
            },
          }
        : {}),
    });
  });
  return {
    url: `${double.base}${path}`,
    requests: double.requests,
    answer: (next) => {
      answerFor = next;
    },
    close: double.close,
  };
}
