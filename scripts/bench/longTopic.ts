import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { type Db, openDatabase } from '../../server/db/database';
import { demoUser } from '../../server/seed/seed';
import { call, encrypter, type TestServer } from '../../tests/support/app';
import { launchBrowser } from '../../tests/support/browser';
import { startServer } from '../../tests/support/server';
import { ms, percentile } from './stats';

/** Even: a conversation that ends with a reply (an odd one would end with a message still unanswered). */
const sizes = [6, 500] as const;
const paintWarmUps = 3;
const paintSamples = 20;
const streamWarmUps = 1;
const streamRuns = 3;
/** Tokens streamed after the first one, one every `tokenIntervalMs` (about 65 tokens a second). */
const streamedTokens = 300;
const tokenIntervalMs = 15;
const viewport = { width: 1280, height: 900 };

// ---------------------------------------------------------------------------------------------
// The conversations: realistic markdown replies, with lists, code blocks, tables and inline code.

const questions = [
  'How do I read a large CSV file in Node without loading it all into memory?',
  'What is the difference between a process and a thread?',
  'Can you explain how HTTP caching headers work together?',
  'Why does my React component render twice in development?',
  'Give me a short checklist for reviewing a pull request.',
  'How should I structure error handling in an async TypeScript service?',
  'What does EXPLAIN ANALYZE tell me in PostgreSQL?',
  'Summarise the trade-offs of server-sent events versus WebSockets.',
];

function botReply(index: number): string {
  const n = index + 1;
  switch (index % 5) {
    case 0:
      return `Good question (#${n}). Streaming keeps memory flat: read the file **line by line** and handle each record as it arrives.

\`\`\`ts
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export async function count(path: string): Promise<number> {
  let rows = 0;
  for await (const line of createInterface({ input: createReadStream(path) })) {
    if (line.trim()) rows += 1;
  }
  return rows;
}
\`\`\`

A few things to keep in mind:

- The \`for await\` loop applies *back-pressure*, so a slow consumer never buffers the whole file.
- Quoted fields may contain newlines: use a real CSV parser for those.
- Measure before optimising; the disk is usually the bottleneck.`;
    case 1:
      return `In short (#${n}):

1. A **process** has its own address space, file descriptors and at least one thread.
2. A **thread** shares the address space of its process with its sibling threads.
3. Switching between threads is cheaper than switching between processes, but shared memory needs synchronisation.

| | Process | Thread |
| --- | --- | --- |
| Memory | isolated | shared |
| Crash | contained | takes the process down |
| Start-up | slower | faster |

If you need isolation, prefer processes; if you need cheap shared state, threads — with care.`;
    case 2:
      return `Caching is decided by a handful of headers (#${n}):

- \`Cache-Control: max-age=600\` lets a cache reuse the response for ten minutes.
- \`ETag\` and \`Last-Modified\` let the client *revalidate* with \`If-None-Match\` / \`If-Modified-Since\`.
- \`Vary\` tells caches which request headers change the response.

> A \`304 Not Modified\` answer has no body: the cached copy is used again.

For hashed assets, use \`Cache-Control: public, max-age=31536000, immutable\` and change the file name when the content changes.`;
    case 3:
      return `That is **Strict Mode** (#${n}). In development React mounts, unmounts and mounts again each component to surface effects that do not clean up.

\`\`\`tsx
useEffect(() => {
  const controller = new AbortController();
  fetch(url, { signal: controller.signal }).then(setData, () => {});
  return () => controller.abort();
}, [url]);
\`\`\`

Nothing happens twice in production. If an effect breaks when it runs twice, it would also break when the user navigates away and back.`;
    default:
      return `Here is a checklist (#${n}):

- [x] Does the change do what the description says?
- [x] Are there tests, and do they fail without the change?
- [ ] Are names clear and comments about *why*, not *what*?
- [ ] Any new dependency, and is it worth it?
- [ ] Errors handled where they can be acted upon?

Then run it locally: \`npm ci && npm test\`. A review is a conversation, so ask questions rather than issuing verdicts.`;
  }
}

/** The reply streamed into the conversation: about 300 tokens of markdown, ending with a marker. */
const marker = 'checksum-4f1c9e';
function streamedReply(): string[] {
  const paragraph =
    'Streaming a reply token by token should cost the same whether the conversation above it is short or long, because only the reply being written renders again while everything above it stays as it was.';
  const text = `${paragraph}

- The list above is memoised, so its items are not rendered again.
- Only the last block of the reply is parsed again for each token.
- Layout should touch the growing message, not the whole log.

\`\`\`ts
function add(a: number, b: number): number {
  return a + b;
}
\`\`\`

${paragraph} ${paragraph} ${paragraph} ${paragraph} ${paragraph}

1. First, measure.
2. Then, change one thing.
3. Measure again.

${paragraph} ${paragraph} ${paragraph}`;
  const tokens = text.split(/(?<=\s)/);
  if (tokens.length < streamedTokens) throw new Error(`the streamed reply has ${tokens.length} tokens`);
  const kept = tokens.slice(0, streamedTokens);
  return [...kept, ` ${marker}.`];
}

// ---------------------------------------------------------------------------------------------
// A model server whose reply the benchmark steps through: first token, then the rest, then the end.

interface Turn {
  /** The first token is written (the reply has started on the page soon after). */
  started: Promise<void>;
  /** Writes the other tokens, one every `tokenIntervalMs`. */
  release: () => void;
  /** Every token is written. */
  written: Promise<void>;
  /** Writes the finish reason and [DONE]. */
  finish: () => void;
}

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function startSteppedModel(tokens: string[]) {
  let current: {
    started: () => void;
    release: Promise<void>;
    written: () => void;
    finish: Promise<void>;
  } | null = null;
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: 'bench-1',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    for await (const _ of request) {
      // the body is not needed
    }
    const turn = current;
    current = null;
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions') || !turn) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'not expected', type: 'invalid_request_error' } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(chunk({ role: 'assistant', content: '' }, null));
    response.write(chunk({ content: tokens[0] }, null));
    turn.started();
    await turn.release;
    // On a schedule, not a chain of delays: a late timer does not push every later token back.
    const start = performance.now();
    for (let index = 1; index < tokens.length; index += 1) {
      const due = start + index * tokenIntervalMs - performance.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      response.write(chunk({ content: tokens[index] }, null));
    }
    turn.written();
    await turn.finish;
    response.write(chunk({}, 'stop'));
    response.end('data: [DONE]\n\n');
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    /** The next request's reply. */
    next(): Turn {
      const started = deferred();
      const release = deferred();
      const written = deferred();
      const finish = deferred();
      current = {
        started: started.resolve,
        release: release.promise,
        written: written.resolve,
        finish: finish.promise,
      };
      return {
        started: started.promise,
        release: release.resolve,
        written: written.promise,
        finish: finish.resolve,
      };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Setting up: the demo user, two topics with the Assistant, messages inserted into the database.

interface Topic {
  size: number;
  id: string;
  lastId: string;
}

/** Inserts `size` messages (user and bot in turn) as one branch of the topic, and makes it its head. */
async function fill(db: Db, topicId: string, size: number): Promise<string> {
  const started = Date.now() - size * 60_000;
  let parent: string | null = null;
  for (let index = 0; index < size; index += 1) {
    const role = index % 2 === 0 ? 'user' : 'bot';
    const pair = Math.floor(index / 2);
    const text = role === 'user' ? `${questions[pair % questions.length]} (${pair + 1})` : botReply(pair);
    const { rows }: { rows: { id: string }[] } = await db.query<{ id: string }>(
      'insert into messages (topic_id, role, text, parent, created_at) values ($1, $2, $3, $4, $5) returning id',
      [topicId, role, text, parent, new Date(started + index * 60_000).toISOString()],
    );
    parent = rows[0].id;
  }
  await db.query(`update topics set head = $2, title = $3, updated_at = now() where id = $1`, [
    topicId,
    parent,
    `A conversation of ${size} messages`,
  ]);
  if (!parent) throw new Error('no messages inserted');
  return parent;
}

async function setUp(modelUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-long-topic-'));
  const env = {
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: modelUrl,
    RATE_LIMIT_API_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
  };
  let server = await startServer(env, { compiled: true });
  const client = () => server as unknown as TestServer;
  const encrypt = await encrypter(client());
  const login = await call(client(), '/auth/login', {
    body: { email: encrypt(demoUser.email), password: encrypt(demoUser.password) },
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  const token = login.body.token as string;
  const me = await call(client(), '/api/v1/user/me', { token });
  const bots = await call(client(), '/api/v1/bot', { token });
  const assistant = bots.body.find((bot: { name: string }) => bot.name === 'Assistant')._id as string;
  const ids: string[] = [];
  for (const _ of sizes) {
    const topic = await call(client(), '/api/v1/topic', { token, body: { bot: assistant } });
    ids.push(topic.body._id as string);
  }
  // The embedded database belongs to one process at a time: filled while the server is down.
  await server.stop();
  const db = await openDatabase({ dataDir, databasePoolSize: 1 });
  const topics: Topic[] = [];
  try {
    await db.transaction(async (tx) => {
      await tx.query('update users set balance = 1000 where id = $1', [me.body._id]);
      for (const [index, size] of sizes.entries()) {
        topics.push({ size, id: ids[index], lastId: await fill(tx, ids[index], size) });
      }
    });
  } finally {
    await db.close();
  }
  server = await startServer(env, { compiled: true });
  return {
    server,
    token,
    topics,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// In the page.

/**
 * Notes when the message `id` is in the DOM and, two animation frames later, painted. A script's
 * text, not a function: tsx would wrap the functions named in it in a helper the page does not have.
 */
const watchFor = (id: string) => `{
  const selector = ${JSON.stringify(`article[data-message-id="${id}"]`)};
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    observer.disconnect();
    const inDom = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => {
      window.__longTopic = { inDom, painted: performance.now() };
    }));
  });
  observer.observe(document, { childList: true, subtree: true });
}`;

type Painted = { inDom: number; painted: number; messages: number };

async function firstPaint(context: BrowserContext, url: string, topic: Topic): Promise<Painted> {
  const page = await context.newPage();
  try {
    await page.addInitScript(watchFor(topic.lastId));
    await page.goto(`${url}/topics/${topic.id}`);
    await page
      .waitForFunction(() => '__longTopic' in window, undefined, { timeout: 30_000 })
      .catch(async () => {
        const shown = await page.evaluate(() => document.querySelector('main')?.textContent?.slice(0, 300));
        throw new Error(`message ${topic.lastId} not shown at ${page.url()}: ${shown}`);
      });
    return await page.evaluate(() => ({
      ...(window as unknown as { __longTopic: { inDom: number; painted: number } }).__longTopic,
      messages: document.querySelectorAll('article.message').length,
    }));
  } finally {
    await page.close();
  }
}

/** `promise`, or an error naming `what` after 30 s. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 30_000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const frames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Polls the page now and then (not every frame, so as not to add work there) until `check` holds. */
async function until(page: Page, check: () => boolean, what: string) {
  const deadline = Date.now() + 30_000;
  while (!(await page.evaluate(check))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const metricNames = [
  'TaskDuration',
  'ThreadTime',
  'ScriptDuration',
  'LayoutDuration',
  'RecalcStyleDuration',
] as const;
type Metrics = Record<(typeof metricNames)[number] | 'LayoutCount' | 'LayoutObjects', number>;

async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const byName = new Map(list.map((metric) => [metric.name, metric.value]));
  return {
    ...(Object.fromEntries(metricNames.map((name) => [name, (byName.get(name) ?? 0) * 1000])) as Record<
      (typeof metricNames)[number],
      number
    >),
    LayoutCount: byName.get('LayoutCount') ?? 0,
    LayoutObjects: byName.get('LayoutObjects') ?? 0,
  };
}
const minus = (after: Metrics, before: Metrics, per = 1) =>
  Object.fromEntries(metricNames.map((name) => [name, (after[name] - before[name]) / per])) as Record<
    (typeof metricNames)[number],
    number
  >;

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

interface StreamRun {
  perToken: Record<(typeof metricNames)[number], number>;
  /** Layouts per token: more than one a frame means script asks for layout (forced, synchronous). */
  layoutsPerToken: number;
  /** Frames the page showed per second while the tokens streamed. */
  framesPerSecond: number;
  layoutObjects: number;
  /** Main-thread ms from Enter until the first token is on screen, and from the last token until the reply is stored. */
  start: number;
  end: number;
  heapLoaded: number;
  heapStreamed: number;
}

/** One reply streamed into the topic on a fresh page: main-thread time of the page per phase. */
async function streamRun(
  context: BrowserContext,
  url: string,
  topic: Topic,
  model: Awaited<ReturnType<typeof startSteppedModel>>,
  run: number,
): Promise<StreamRun> {
  const page = await context.newPage();
  try {
    await page.goto(`${url}/topics/${topic.id}`);
    await page.locator(`article[data-message-id="${topic.lastId}"]`).waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const composer = page.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill(`One more question, run ${run}: why measure streaming per token?`);
    await frames(page);
    await sleep(300);
    const heapLoaded = await heapAfterGc(cdp);
    const turn = model.next();
    const beforeSend = await metrics(cdp);
    await page.keyboard.press('Enter');
    await within(turn.started, 'the model to be asked');
    await until(
      page,
      () => document.querySelector('article.message.bot[aria-busy="true"]') !== null,
      'the reply',
    );
    // Counts frames from here on (a script's text: see watchFor).
    await page.evaluate(
      '{ window.__frames = 0; const tick = () => { window.__frames += 1; requestAnimationFrame(tick); }; requestAnimationFrame(tick); }',
    );
    await frames(page);
    await sleep(200);
    const shown = () =>
      page.evaluate(() => ({
        frames: (window as unknown as { __frames: number }).__frames,
        at: performance.now(),
      }));
    const firstFrame = await shown();
    const first = await metrics(cdp);
    turn.release();
    await within(turn.written, 'the model to write its reply');
    await until(
      page,
      () =>
        (document.querySelector('article.message.bot[aria-busy="true"]')?.textContent ?? '').includes(
          'checksum-4f1c9e',
        ),
      'the last token',
    );
    await frames(page);
    const last = await metrics(cdp);
    const lastFrame = await shown();
    const heapStreamed = await heapAfterGc(cdp);
    const afterGc = await metrics(cdp);
    turn.finish();
    await until(
      page,
      () =>
        document.querySelector('article.message.bot[aria-busy="true"]') === null &&
        (document.querySelector('article.message:last-of-type')?.textContent ?? '').includes(
          'checksum-4f1c9e',
        ),
      'the stored reply',
    );
    await frames(page);
    const stored = await metrics(cdp);
    return {
      perToken: minus(last, first, streamedTokens),
      layoutsPerToken: (last.LayoutCount - first.LayoutCount) / streamedTokens,
      framesPerSecond: ((lastFrame.frames - firstFrame.frames) * 1000) / (lastFrame.at - firstFrame.at),
      layoutObjects: last.LayoutObjects,
      start: first.TaskDuration - beforeSend.TaskDuration,
      end: stored.TaskDuration - afterGc.TaskDuration,
      heapLoaded,
      heapStreamed,
    };
  } catch (error) {
    const shown = await page.evaluate(() => document.querySelector('main')?.textContent?.slice(-300));
    throw new Error(`${(error as Error).message}; the end of the page: ${shown}`);
  } finally {
    await page.close();
  }
}

// ---------------------------------------------------------------------------------------------

const median = (values: number[]) => percentile(values, 50);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A long conversation against a short one in Chromium, against the compiled server: first paint of
 * the topic page, and the page's main-thread time per streamed token at the end of the conversation.
 */
export async function printLongTopicFigures(): Promise<void> {
  const tokens = streamedReply();
  const model = await startSteppedModel(tokens);
  const setup = await setUp(model.url);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport });
    const landing = await context.newPage();
    await landing.goto(`${setup.server.url}/landing`);
    await landing.evaluate((token) => localStorage.setItem('token', token), setup.token);
    await landing.close();

    // First paint: the server, the browser's cache and the service worker warmed first; the sizes take turns.
    const painted = new Map<number, Painted[]>(sizes.map((size) => [size, []]));
    for (let round = 0; round < paintWarmUps + paintSamples; round += 1) {
      for (const topic of setup.topics) {
        const sample = await firstPaint(context, setup.server.url, topic);
        if (sample.messages !== topic.size)
          throw new Error(`${sample.messages} messages on screen, not ${topic.size}`);
        if (round >= paintWarmUps) painted.get(topic.size)?.push(sample);
      }
    }

    // Streaming: a fresh page per reply; each reply adds two messages to its topic.
    const runs = new Map<number, StreamRun[]>(sizes.map((size) => [size, []]));
    for (let round = 0; round < streamWarmUps + streamRuns; round += 1) {
      for (const topic of setup.topics) {
        const run = await streamRun(context, setup.server.url, topic, model, round);
        if (round >= streamWarmUps) runs.get(topic.size)?.push(run);
        // The reply is the new end of the conversation: the next run waits for it.
        const { body } = await call(setup.server as unknown as TestServer, `/api/v1/topic/${topic.id}`, {
          token: setup.token,
        });
        topic.lastId = body.head;
      }
    }

    console.log(
      `## Long conversations (Chromium, compiled server on PGlite, ${viewport.width}×${viewport.height}): ${sizes.join(' vs ')} messages`,
    );
    console.log(
      `first paint: navigation start until the last message is in the DOM, and painted (two frames later); ${paintSamples} fresh pages each after ${paintWarmUps} warm-ups`,
    );
    console.log('messages | in DOM p50 | painted p50 | painted p95');
    for (const size of sizes) {
      const samples = painted.get(size) ?? [];
      const inDom = samples.map((sample) => sample.inDom);
      const shown = samples.map((sample) => sample.painted);
      console.log(
        `${String(size).padStart(8)} | ${ms(median(inDom)).padStart(10)} | ${ms(median(shown)).padStart(11)} | ${ms(percentile(shown, 95)).padStart(11)}`,
      );
    }
    console.log(
      `streaming: ${streamedTokens} tokens, one every ${tokenIntervalMs} ms, into the end of the conversation; the page's main thread (CDP Performance.getMetrics: task = time in tasks, CPU = its CPU time, which other processes on the cores do not inflate) from the first token on screen to the last, per token; median of ${streamRuns} replies after ${streamWarmUps} warm-up, a fresh page each`,
    );
    console.log(
      'messages | task/token | CPU/token | script/token | layout/token | style/token | layouts/token | frames/s',
    );
    const cell = (value: string, width: number) => value.padStart(width);
    for (const size of sizes) {
      const list = runs.get(size) ?? [];
      const of = (name: (typeof metricNames)[number]) => median(list.map((run) => run.perToken[name]));
      const layouts = median(list.map((run) => run.layoutsPerToken));
      const fps = median(list.map((run) => run.framesPerSecond));
      console.log(
        [
          cell(String(size), 8),
          cell(ms(of('TaskDuration')), 10),
          cell(ms(of('ThreadTime')), 9),
          cell(ms(of('ScriptDuration')), 12),
          cell(ms(of('LayoutDuration')), 12),
          cell(ms(of('RecalcStyleDuration')), 11),
          cell(layouts.toFixed(2), 13),
          cell(fps.toFixed(0), 8),
        ].join(' | '),
      );
    }
    const ratio = (name: (typeof metricNames)[number]) => {
      const [small, large] = sizes.map((size) =>
        median((runs.get(size) ?? []).map((run) => run.perToken[name])),
      );
      return `${(large / small).toFixed(2)}×`;
    };
    const each = sizes
      .map((size) => {
        const list = runs.get(size) ?? [];
        return `${size}: ${list.map((run) => run.perToken.ThreadTime.toFixed(2)).join(', ')} ms`;
      })
      .join('; ');
    console.log(
      `per token, ${sizes[1]} against ${sizes[0]} messages: task ${ratio('TaskDuration')}, CPU ${ratio('ThreadTime')}, layout ${ratio('LayoutDuration')} (CPU/token of each reply: ${each})`,
    );
    console.log(
      'per reply and page: main-thread time from Enter to the first token on screen and from the last token to the stored reply; layout objects; JS heap used after a garbage collection',
    );
    console.log(
      'messages | Enter→first token | last token→stored | layout objects | JS heap loaded | after the reply',
    );
    for (const size of sizes) {
      const list = runs.get(size) ?? [];
      const of = (value: (run: StreamRun) => number) => median(list.map(value));
      console.log(
        [
          cell(String(size), 8),
          cell(ms(of((run) => run.start)), 17),
          cell(ms(of((run) => run.end)), 17),
          cell(of((run) => run.layoutObjects).toFixed(0), 14),
          cell(mb(of((run) => run.heapLoaded)), 14),
          cell(mb(of((run) => run.heapStreamed)), 15),
        ].join(' | '),
      );
    }
  } finally {
    await browser.close();
    await setup.stop();
    await model.close();
  }
}
