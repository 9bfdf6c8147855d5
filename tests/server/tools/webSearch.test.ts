import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, type Json, postMessage, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble, toolSteps } from '../../support/openai-double';
import { type SearchDouble, startBraveDouble, startSearxngDouble } from '../../support/searchEngines';
import { readEvents } from '../../support/sse';
import { type Actor, admin, loginOwner } from '../admin/support';
import { billing, giveTools, newTopic, readTopic, replyText, stepEvents, type User } from './support';

const appKey = 'BSA-app-key-0123456789abcd';
const acmeKey = 'BSA-acme-key-9876543210wxyz';

/** Sends a message (with "Search the web" when `webSearch`) and reads the reply's events, or the refusal. */
async function send(server: TestServer, user: User, topic: string, text: string, webSearch?: boolean) {
  const response = await postMessage(
    server,
    user,
    topic,
    webSearch === undefined ? { text } : { text, webSearch },
  );
  if (!response.headers.get('content-type')?.includes('text/event-stream'))
    return { status: response.status, body: (await response.json()) as Json, events: [] };
  return { status: response.status, body: null, events: await readEvents(response) };
}

const offered = (model: OpenAiDouble, from: number) =>
  model.requests[from]?.tools?.map((tool) => tool.function.name) ?? [];

/** A model that searches for `query`, then answers with what the results said. */
const searching = (query: string) =>
  toolSteps([
    { call: { name: 'web_search', arguments: { query } } },
    { answer: (results) => `Found it [1]. ${results[0].split('\n')[0]}` },
  ]);

/**
 * `web_search` with private addresses refused (the default): Brave Search, at the operator's address
 * (BRAVE_SEARCH_URL: its double here), the organization's key sealed; `fetch_url` of a result on a
 * private address refused by the SSRF guard; a SearXNG address on this machine refused when saved;
 * each organization's engine and key its own.
 */
describe('web search through Brave, private addresses refused', () => {
  let model: OpenAiDouble;
  let brave: SearchDouble;
  let server: TestServer;
  let owner: Actor;
  let bots: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    brave = await startBraveDouble([appKey, acmeKey]);
    server = await startApp({ OPENAI_BASE_URL: model.url, BRAVE_SEARCH_URL: brave.url });
    owner = await loginOwner(server, 'app');
    bots = await botIds(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
    await brave?.close();
  });

  it('keeps the Brave key sealed and answers it masked; refuses a private SearXNG address and bad settings', async () => {
    const refused = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { search: { engine: 'searxng', url: 'http://127.0.0.1:8888' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'URL_NOT_ALLOWED', field: 'search' });
    expect(refused.body.error).toMatch(/127\.0\.0\.1 is on this machine or a private network/);
    for (const [search, pattern] of [
      [{ engine: 'brave' }, /Enter the Brave Search API key/],
      [{ engine: 'brave', key: 'has space' }, /characters no key has/],
      [{ engine: 'searxng', url: '' }, /Enter the address of the SearXNG instance/],
      [{ engine: 'searxng', url: 'ftp://searx.example.org' }, /must start with http/],
    ] as const) {
      const answer = await admin(server, owner, '/settings', { method: 'PATCH', body: { search } });
      expect(answer.status, JSON.stringify(search)).toBe(400);
      expect(answer.body).toMatchObject({ field: 'search' });
      expect(answer.body.error).toMatch(pattern);
    }
    for (const search of [{ engine: 'bing' }, { engine: 'brave', key: 5 }, { engine: 'brave', extra: 1 }]) {
      const answer = await admin(server, owner, '/settings', { method: 'PATCH', body: { search } });
      expect(answer.status, JSON.stringify(search)).toBe(400);
    }
    expect((await admin(server, owner, '/settings')).body.search).toBeNull();

    const saved = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { search: { engine: 'brave', key: appKey } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.search).toEqual({ engine: 'brave', key: '••••abcd' });
    expect((await admin(server, owner, '/settings')).body.search).toEqual({
      engine: 'brave',
      key: '••••abcd',
    });
    // Left out, the key stays; the stored value holds it sealed, never in clear; the audit masked.
    const again = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { search: { engine: 'brave' }, memory: true },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.search).toEqual({ engine: 'brave', key: '••••abcd' });
    const { rows } = await server.app.db.query<{ search: Json }>(
      `select search from organizations where subdomain = 'app'`,
    );
    expect(rows[0].search).toMatchObject({ engine: 'brave', keyHint: 'abcd' });
    expect(JSON.stringify(rows[0].search)).not.toContain(appKey);
    const audit = await admin(server, owner, '/audit');
    const entry = audit.body.items.find((item: Json) => item.action === 'settings.update');
    expect(entry.after.search).toEqual({ engine: 'brave', key: '••••abcd' });
    expect(JSON.stringify(audit.body)).not.toContain(appKey);
    // Members learn only that search is available.
    const lookup = await call(server, '/api/v1/organization/app');
    expect(lookup.body.webSearch).toBe(true);
    expect(JSON.stringify(lookup.body)).not.toContain('brave');
    expect((await call(server, '/api/v1/organization/acme')).body.webSearch).toBe(false);
  });

  it('answers web_search from Brave: the results go to the model and come back as citations with their url', async () => {
    await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { search: { engine: 'brave', key: appKey } },
    });
    await giveTools(server, 'app', bots.Assistant, ['web_search']);
    // The catalogue says the bot searches by itself: the app offers no switch for it.
    const user = await signUp(server);
    const listed = await call(server, '/api/v1/bot', { token: user.token, tenant: 'app' });
    expect(listed.body.find((bot: Json) => bot._id === bots.Assistant).webSearch).toBe(true);
    model.script(searching('tide tables'));
    const topic = await newTopic(server, user, bots.Assistant);
    const asked = model.requests.length;
    const seen = brave.requests.length;
    const { events } = await send(server, user, topic, 'When is high tide?');

    // web_search brings fetch_url, to read a result.
    expect(offered(model, asked)).toEqual(['web_search', 'fetch_url', 'remember']);
    const request = brave.requests[seen];
    expect(request.query.get('q')).toBe('tide tables');
    expect(request.query.get('count')).toBe('6');
    expect(request.headers['x-subscription-token']).toBe(appKey);
    const steps = stepEvents(events);
    expect(steps.map((step) => [step.tool, step.status])).toEqual([
      ['web_search', 'running'],
      ['web_search', 'done'],
    ]);
    // Numbered to cite, Brave's <strong> taken out.
    expect(steps[1].result).toBe(
      [
        'Web results for "tide tables". Cite a result you use as [n]; fetch_url reads a page when its snippet is not enough.',
        '[1] tide tables — an overview\nURL: https://example.org/tide%20tables\nEverything about tide tables, explained.',
        '[2] More on tide tables\nURL: https://example.org/more\nFurther reading on tide tables.',
      ].join('\n\n'),
    );
    const citations = [
      {
        n: 1,
        name: 'tide tables — an overview',
        url: 'https://example.org/tide%20tables',
        snippet: 'Everything about tide tables, explained.',
      },
      {
        n: 2,
        name: 'More on tide tables',
        url: 'https://example.org/more',
        snippet: 'Further reading on tide tables.',
      },
    ];
    const done = events.at(-1) as Json;
    expect(done.event).toBe('done');
    expect(done.data.citations).toEqual(citations);
    expect(replyText(events)).toBe(
      'Found it [1]. Web results for "tide tables". Cite a result you use as [n]; fetch_url reads a page when its snippet is not enough.',
    );
    // Kept with the reply: a reload shows them.
    const stored = await readTopic(server, user, topic);
    expect(stored.messages[1].citations).toEqual(citations);
  });

  it('refuses fetch_url of a result on a private address (the SSRF guard), and the reply goes on', async () => {
    await giveTools(server, 'app', bots.Assistant, ['web_search']);
    const inside = `${new URL(brave.url).origin}/private`;
    brave.answer(() => [{ title: 'Internal wiki', url: inside, snippet: 'Secrets inside.' }]);
    model.script(
      toolSteps([
        { call: { name: 'web_search', arguments: { query: 'internal wiki' } } },
        { call: { name: 'fetch_url', arguments: { url: inside } } },
        { answer: (results) => `I could not read it: ${results[1]}` },
      ]),
    );
    try {
      const user = await signUp(server);
      const topic = await newTopic(server, user, bots.Assistant);
      const { events } = await send(server, user, topic, 'Read our wiki');
      const steps = stepEvents(events).filter((step) => step.status !== 'running');
      expect(steps.map((step) => [step.tool, step.status])).toEqual([
        ['web_search', 'done'],
        ['fetch_url', 'error'],
      ]);
      expect(steps[1].error).toBe(
        `${inside} is on a private or local network (127.0.0.1), which fetch_url may not reach.`,
      );
      expect(brave.requests.some((request) => request.path === '/private')).toBe(false);
      expect((events.at(-1) as Json).event).toBe('done');
    } finally {
      brave.answer((query) => [{ title: query, url: 'https://example.org/', snippet: query }]);
    }
  });

  it("uses each organization's own engine and key, never another's: none, its own key, a key copied over", async () => {
    await giveTools(server, 'app', bots.Assistant, ['web_search']);
    await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { search: { engine: 'brave', key: appKey } },
    });
    const acmeBots = await botIds(server, 'acme');
    const helpdesk = acmeBots['Acme Helpdesk'];
    await giveTools(server, 'acme', helpdesk, ['web_search']);
    const member = await signUp(server, 'acme');
    const topic = await newTopic(server, member, helpdesk);
    const seen = brave.requests.length;

    // Acme has no engine: the tool is not offered, and "Search the web" is refused before anything is held.
    let asked = model.requests.length;
    model.script(() => ({ chunks: ['No search here.'] }));
    await send(server, member, topic, 'Anything?');
    expect(offered(model, asked)).not.toContain('web_search');
    const refused = await send(server, member, topic, 'Search please', true);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'SEARCH_NOT_CONFIGURED', field: 'webSearch' });
    expect(await billing(server, member)).toMatchObject({ reserved: 0 });

    // Its own key.
    const acmeOwner = await loginOwner(server, 'acme');
    await admin(server, acmeOwner, '/settings', {
      method: 'PATCH',
      body: { search: { engine: 'brave', key: acmeKey } },
    });
    asked = model.requests.length;
    model.script(searching('acme news'));
    await send(server, member, topic, 'News?');
    expect(offered(model, asked)).toContain('web_search');
    expect(brave.requests.slice(seen).map((request) => request.headers['x-subscription-token'])).toEqual([
      acmeKey,
    ]);

    // App's sealed key copied into acme's settings does not open there: nothing is sent.
    await server.app.db.query(
      `update organizations set search = (select search from organizations where subdomain = 'app') where subdomain = 'acme'`,
    );
    model.script(searching('acme again'));
    const { events } = await send(server, member, topic, 'Again?');
    const failed = stepEvents(events).find((step) => step.status === 'error');
    expect(failed?.error).toBe('The Brave Search key can no longer be read: an admin must enter it again.');
    expect(brave.requests.slice(seen)).toHaveLength(1);
    await admin(server, acmeOwner, '/settings', { method: 'PATCH', body: { search: null } });
  });
});

/**
 * `web_search` through an admin's SearXNG instance on this machine (ALLOW_PRIVATE_PROVIDER_URLS=true,
 * as an operator running one beside Parley sets): the composer's "Search the web" for one message,
 * an engine that hangs or answers garbage.
 */
describe('web search through SearXNG: the switch, and engines that fail', () => {
  let model: OpenAiDouble;
  let searxng: SearchDouble;
  let server: TestServer;
  let bots: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    searxng = await startSearxngDouble();
    server = await startApp({
      OPENAI_BASE_URL: model.url,
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
      SEARCH_TIMEOUT_SECONDS: '1',
    });
    const owner = await loginOwner(server, 'app');
    const saved = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { search: { engine: 'searxng', url: `${searxng.url}/` } },
    });
    expect(saved.body.search).toEqual({ engine: 'searxng', url: searxng.url });
    bots = await botIds(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
    await searxng?.close();
  });

  it('offers web_search for one message with webSearch: true, kept for its regeneration; never otherwise', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    let asked = model.requests.length;
    model.script(searching('parley chat'));
    const { events } = await send(server, user, topic, 'What is Parley?', true);
    expect(offered(model, asked)).toEqual(['web_search', 'fetch_url', 'remember']);
    const request = searxng.requests.at(-1);
    expect(request?.path).toBe('/search');
    expect(request?.query.get('q')).toBe('parley chat');
    expect(request?.query.get('format')).toBe('json');
    const done = events.at(-1) as Json;
    expect(done.data.citations).toEqual([
      {
        n: 1,
        name: 'parley chat — an overview',
        url: 'https://example.org/parley%20chat',
        snippet: 'Everything about parley chat, explained.',
      },
      {
        n: 2,
        name: 'More on parley chat',
        url: 'https://example.org/more',
        snippet: 'Further reading on parley chat.',
      },
    ]);

    // The next message, without the switch: no search.
    asked = model.requests.length;
    model.script(() => ({ chunks: ['Plain.'] }));
    await send(server, user, topic, 'Thanks');
    expect(offered(model, asked)).toEqual(['remember']);

    // Regenerating the searched message's reply searches again.
    asked = model.requests.length;
    model.script(searching('parley chat'));
    const regenerated = await fetch(
      `${server.url}/api/v1/topic/${topic}/message/${done.data.botMessageId}/regenerate`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, organization: 'app' },
      },
    );
    await readEvents(regenerated);
    expect(offered(model, asked)).toContain('web_search');
  });

  it('a reply cut off after a search keeps its pages; continued, it cites them still and numbers new ones after them', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    // The search, then the connection cut mid-answer: the reply fails, kept as far as it got.
    model.script((request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { chunks: ['Tides follow the moon [1]'], end: 'drop' }
        : { chunks: [], toolCalls: [{ name: 'web_search', arguments: { query: 'tides' } }] },
    );
    const { events } = await send(server, user, topic, 'Tell me about tides', true);
    const botMessageId = (events[0] as Json).data.botMessageId;
    expect((events.at(-1) as Json).event).toBe('error');
    const cut = (await readTopic(server, user, topic)).messages[1];
    expect(cut.status).toBe('failed');
    expect(cut.citations.map((citation: Json) => [citation.n, citation.url])).toEqual([
      [1, 'https://example.org/tides'],
      [2, 'https://example.org/more'],
    ]);

    // Continued: another search; a page found again keeps its number.
    model.script(searching('moons'));
    const continued = await fetch(`${server.url}/api/v1/topic/${topic}/message/${botMessageId}/continue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, organization: 'app' },
    });
    const done = (await readEvents(continued)).at(-1) as Json;
    expect(done.event).toBe('done');
    const pages = [
      [1, 'https://example.org/tides'],
      [2, 'https://example.org/more'],
      [3, 'https://example.org/moons'],
    ];
    expect(done.data.citations.map((citation: Json) => [citation.n, citation.url])).toEqual(pages);
    const stored = (await readTopic(server, user, topic)).messages[1];
    expect(stored.citations.map((citation: Json) => [citation.n, citation.url])).toEqual(pages);
  });

  it('refuses webSearch for a bot that runs no model, before anything is held', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.ELIZA);
    const refused = await send(server, user, topic, 'Hello', true);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'SEARCH_UNSUPPORTED', field: 'webSearch' });
    expect(await billing(server, user)).toMatchObject({ balance: 10, reserved: 0 });
  });

  it('an engine that hangs, answers HTML, fails or sends no results: a clear tool error, the reply finishes and is charged', async () => {
    searxng.answer(
      (query) => (['hang', 'garbage', 'fail', 'odd'] as const).find((way) => way === query) ?? [],
    );
    model.script(
      toolSteps([
        { call: { name: 'web_search', arguments: { query: 'hang' } } },
        { call: { name: 'web_search', arguments: { query: 'garbage' } } },
        { call: { name: 'web_search', arguments: { query: 'fail' } } },
        { call: { name: 'web_search', arguments: { query: 'odd' } } },
        { call: { name: 'web_search', arguments: { query: 'nothing' } } },
        { answer: (results) => results.join(' | ') },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    const started = Date.now();
    const { events } = await send(server, user, topic, 'Search hard', true);
    const ended = stepEvents(events).filter((step) => step.status !== 'running');
    expect(ended.map((step) => step.error ?? step.result)).toEqual([
      'The SearXNG instance did not answer within 1 s.',
      'The SearXNG instance sent an answer that is not JSON.',
      'The SearXNG instance failed (HTTP 500).',
      'The SearXNG instance sent an answer without search results.',
      'The web search found nothing for "nothing".',
    ]);
    expect(ended.slice(0, 4).every((step) => step.status === 'error')).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The model read each error and answered: a complete reply, charged its price like any other.
    const done = events.at(-1) as Json;
    expect(done.event).toBe('done');
    expect(done.data.citations).toBeUndefined();
    expect(replyText(events)).toContain('Error: The SearXNG instance did not answer within 1 s.');
    expect(done.data.cost).toBe(0.05);
    expect(await billing(server, user)).toMatchObject({ balance: 9.95, reserved: 0 });
  });
});
