import { readFileSync } from 'node:fs';
import { call, encrypter, signUp, type TestServer } from '../../tests/support/app';
import { type OpenAiDouble, startOpenAiDouble } from '../../tests/support/openai-double';
import { type RunningServer, startServer } from '../../tests/support/server';
import { memoryLine, memoryOf } from './serverCost';
import { loadLine, ms, percentile } from './stats';

const concurrency = 100;
/** Enough samples for a p99 that is not the maximum. */
const samples = 1000;

/** The resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/**
 * Milliseconds from sending a request until the first piece of text arrives; the reply is read to its
 * end (its topic takes the next message only then).
 */
export async function firstToken(
  start: () => Promise<Response>,
  isToken: (chunk: string) => boolean,
): Promise<number> {
  const started = performance.now();
  const response = await start();
  const decoder = new TextDecoder();
  let seen = '';
  let elapsed = Number.NaN;
  for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
    seen += decoder.decode(bytes, { stream: true });
    if (Number.isNaN(elapsed) && isToken(seen)) elapsed = performance.now() - started;
  }
  if (Number.isNaN(elapsed)) throw new Error(`stream ended without a token: ${seen.slice(0, 200)}`);
  return elapsed;
}

/** `samples` measurements, `parallel` at a time (each round waits for its slowest). */
async function measure(parallel: number, one: (index: number) => Promise<number>): Promise<number[]> {
  const values: number[] = [];
  for (let round = 0; values.length < samples; round += 1) {
    values.push(
      ...(await Promise.all(Array.from({ length: parallel }, (_, index) => one(round * parallel + index)))),
    );
  }
  return values;
}

export interface Setup {
  server: RunningServer;
  topics: { token: string; id: string }[];
  /** The members the topics belong to (ten), and the bot they talk to. */
  tokens: string[];
  botId: string;
}

/** One new conversation per concurrent stream, round the members: a topic takes one reply at a time. */
export const newTopics = (setup: Pick<Setup, 'server' | 'tokens' | 'botId'>) =>
  Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      const token = setup.tokens[index % setup.tokens.length];
      const topic = await call(setup.server as unknown as TestServer, '/api/v1/topic', {
        token,
        body: { bot: setup.botId },
      });
      return { token, id: topic.body._id as string };
    }),
  );

export async function setUp(
  env: Record<string, string>,
  bot: string,
  options?: Parameters<typeof startServer>[1],
  onStarted?: (server: RunningServer) => Promise<void>,
): Promise<Setup> {
  // The server runs in its own process at the production log level; this one plays clients and model.
  const server = await startServer(
    {
      STATIC_DIR: '',
      LOG_LEVEL: 'info',
      RATE_LIMIT_OTP_PER_IP_PER_HOUR: '100000',
      RATE_LIMIT_API_PER_MINUTE: '10000000',
      RATE_LIMIT_API_KEY_PER_MINUTE: '10000000',
      STARTING_BALANCE: '1000000',
      ...env,
    },
    options,
  );
  await onStarted?.(server);
  const client = server as unknown as TestServer;
  const users = await Promise.all(Array.from({ length: 10 }, () => signUp(client)));
  const bots = await call(client, '/api/v1/bot', { token: users[0].token });
  const botId = bots.body.find((item: { name: string }) => item.name === bot)._id;
  const tokens = users.map((user) => user.token);
  return { server, tokens, botId, topics: await newTopics({ server, tokens, botId }) };
}

export const send = (setup: Setup, index: number, text: string) => {
  const topic = setup.topics[index % setup.topics.length];
  return fetch(`${setup.server.url}/api/v1/topic/${topic.id}/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${topic.token}` },
    body: JSON.stringify({ text }),
  });
};
export const isParleyToken = (text: string) => text.includes('event: token');

/** A personal API key for each member of the setup (one per distinct token), for `/v1/…`. */
async function apiKeysOf(setup: Setup): Promise<string[]> {
  const client = setup.server as unknown as TestServer;
  const encrypt = await encrypter(client);
  const tokens = [...new Set(setup.topics.map((topic) => topic.token))];
  return Promise.all(
    tokens.map(async (token) => {
      const answer = await call(client, '/api/v1/user/me/key', { token, body: { name: encrypt('bench') } });
      if (answer.status !== 200) throw new Error(`no API key: ${JSON.stringify(answer.body)}`);
      return answer.body.key as string;
    }),
  );
}
/** The first chunk of a `/v1/chat/completions` stream that carries text (not the role alone). */
const isCompletionText = (text: string) => /"content":"[^"]/.test(text);

/**
 * Time to first token through Parley against the model double's own, per request: the double notes
 * when each request arrived and when its first chunk left, and what Parley added is the client's
 * time minus the double's time for that very request. Warm-up first on both paths.
 */
export async function printTtftFigures(database: { name: string; url?: string }): Promise<void> {
  const model: OpenAiDouble = await startOpenAiDouble();
  model.script(() => ({ chunks: ['Hello', ' there', '!'] }));
  const env: Record<string, string> = database.url ? { DATABASE_URL: database.url } : {};
  const setup = await setUp({ ...env, OPENAI_BASE_URL: model.url }, 'Assistant');
  const keys = await apiKeysOf(setup);
  const botId = (
    await call(setup.server as unknown as TestServer, '/api/v1/bot', { token: setup.topics[0].token })
  ).body.find((item: { name: string }) => item.name === 'Assistant')._id as string;
  let sequence = 0;
  const direct = async () => {
    const text = `direct ${sequence++}`;
    return firstToken(
      () =>
        fetch(`${model.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: text }] }),
        }),
      (seen) => seen.includes('"content":"Hello"'),
    );
  };
  const added: number[] = [];
  const through = async (index: number) => {
    const text = `parley ${sequence++}`;
    const total = await firstToken(() => send(setup, index, text), isParleyToken);
    const own = model.timings.get(text);
    if (own) added.push(total - (own.firstChunk - own.received));
    return total;
  };
  // The same bot through Parley's OpenAI-compatible API, streamed, each member with their own key.
  const addedByApi: number[] = [];
  const throughApi = async (index: number) => {
    const text = `api ${sequence++}`;
    const total = await firstToken(
      () =>
        fetch(`${setup.server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${keys[index % keys.length]}`,
          },
          body: JSON.stringify({ model: botId, stream: true, messages: [{ role: 'user', content: text }] }),
        }),
      isCompletionText,
    );
    const own = model.timings.get(text);
    if (own) addedByApi.push(total - (own.firstChunk - own.received));
    return total;
  };
  try {
    const idle = rssMb(setup.server.pid);
    const memory = await memoryOf(setup.server);
    await measure(concurrency, () => direct());
    await measure(concurrency, through);
    await measure(concurrency, throughApi);
    const figures: Record<
      string,
      { direct: number[]; parley: number[]; added: number[]; api: number[]; addedByApi: number[] }
    > = {};
    for (const parallel of [1, concurrency]) {
      added.length = 0;
      addedByApi.length = 0;
      const own = await measure(parallel, () => direct());
      const parley = await measure(parallel, through);
      const api = await measure(parallel, throughApi);
      figures[parallel] = { direct: own, parley, added: [...added], api, addedByApi: [...addedByApi] };
    }
    let peak = 0;
    const watch = setInterval(() => {
      peak = Math.max(peak, rssMb(setup.server.pid));
    }, 20);
    await measure(concurrency, through);
    clearInterval(watch);

    console.log(
      `## Time to first token, ${database.name} (server process at log level info, OpenAI double, loopback): the chat route and /v1/chat/completions`,
    );
    for (const [parallel, { direct: own, parley, added: extra, api, addedByApi: apiExtra }] of Object.entries(
      figures,
    )) {
      const through = (route: string, times: number[], extraTimes: number[]) =>
        `  through ${route} p50 ${ms(percentile(times, 50))} p99 ${ms(percentile(times, 99))} (${(percentile(times, 50) / percentile(own, 50)).toFixed(2)}× the double's p50); added by Parley per request p50 ${ms(percentile(extraTimes, 50))} p99 ${ms(percentile(extraTimes, 99))}`;
      console.log(
        `${parallel === '1' ? 'one at a time' : `${parallel} simultaneous`} (${parley.length} samples each): double's own p50 ${ms(percentile(own, 50))} p99 ${ms(percentile(own, 99))}`,
      );
      console.log(through('the chat route (POST /api/v1/topic/:id/message)', parley, extra));
      console.log(through('/v1/chat/completions (API key, stream: true)', api, apiExtra));
    }
    console.log(
      `server RSS: idle ${idle.toFixed(0)} MB, during ${concurrency} streams up to ${peak.toFixed(0)} MB`,
    );
    console.log(`idle, before the streams: ${memoryLine(memory)}`);
  } finally {
    await setup.server.stop();
    await model.close();
  }

  // ELIZA answers inside the server with no delay: the server's own path alone.
  const eliza = await setUp({ ...env, BUILTIN_TOKEN_DELAY_MS: '0' }, 'ELIZA');
  try {
    await measure(concurrency, (index) => firstToken(() => send(eliza, index, 'I am sad.'), isParleyToken));
    const alone = await measure(1, (index) =>
      firstToken(() => send(eliza, index, 'I am sad.'), isParleyToken),
    );
    const crowd = await measure(concurrency, (index) =>
      firstToken(() => send(eliza, index, 'I am sad.'), isParleyToken),
    );
    console.log(
      `ELIZA (built in, no delay; ${loadLine()}): first token alone p50 ${ms(percentile(alone, 50))} p95 ${ms(percentile(alone, 95))} p99 ${ms(percentile(alone, 99))} (target: p50 below the older code's 8–10 ms, issue 32); ${concurrency} simultaneous p50 ${ms(percentile(crowd, 50))} p99 ${ms(percentile(crowd, 99))} (p50 ${(percentile(crowd, 50) / percentile(alone, 50)).toFixed(1)}× alone)`,
    );
  } finally {
    await eliza.server.stop();
  }
}
