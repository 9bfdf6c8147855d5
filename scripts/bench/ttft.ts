import { startServer } from '../../tests/e2e/support/server';
import { call, signUp, type TestServer } from '../../tests/server/support/app';
import { startOpenAiDouble } from '../../tests/support/openai-double';
import { ms, percentile } from './stats';

const streams = 100;

/** Milliseconds from sending a request to the first piece of text, for each of `count` concurrent streams. */
async function firstTokens(
  count: number,
  start: () => Promise<Response>,
  isToken: (chunk: string) => boolean,
): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const started = performance.now();
      const response = await start();
      const decoder = new TextDecoder();
      let seen = '';
      for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
        seen += decoder.decode(bytes, { stream: true });
        if (isToken(seen)) {
          const elapsed = performance.now() - started;
          response.body?.cancel().catch(() => {});
          return elapsed;
        }
      }
      throw new Error('stream ended without a token');
    }),
  );
}

/** Time to first token through Parley minus straight from the model double, 100 concurrent streams. */
export async function printTtftFigures(database: { name: string; url?: string }): Promise<void> {
  const model = await startOpenAiDouble();
  model.script(() => ({ chunks: ['Hello', ' there', '!'] }));
  // The server runs in its own process, as in production; this one plays the clients and the model.
  const running = await startServer({
    OPENAI_BASE_URL: model.url,
    STATIC_DIR: '',
    RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const server = running as unknown as TestServer;
  try {
    const users = await Promise.all(Array.from({ length: 10 }, () => signUp(server)));
    const bots = await call(server, '/api/v1/bot', { token: users[0].token });
    const assistant = bots.body.find((bot: { name: string }) => bot.name === 'Assistant')._id;
    // One topic per stream: a topic takes one reply at a time.
    const topics = await Promise.all(
      Array.from({ length: streams }, async (_, index) => {
        const user = users[index % users.length];
        const topic = await call(server, '/api/v1/topic', { token: user.token, body: { bot: assistant } });
        return { user, id: topic.body._id as string };
      }),
    );
    const direct = () =>
      fetch(`${model.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
    let next = 0;
    const throughParley = () => {
      const topic = topics[next++ % topics.length];
      return fetch(`${server.url}/api/v1/topic/${topic.id}/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${topic.user.token}` },
        body: JSON.stringify({ text: 'hi' }),
      });
    };
    await firstTokens(10, direct, (text) => text.includes('"content":"Hello"'));
    const baseline = await firstTokens(streams, direct, (text) => text.includes('"content":"Hello"'));
    next = 0;
    const parley = await firstTokens(streams, throughParley, (text) => text.includes('event: token'));
    // One stream at a time: the cost of one request, without queueing behind 99 others on 2 cores.
    const alone = { direct: [] as number[], parley: [] as number[] };
    for (let round = 0; round < 30; round += 1) {
      alone.direct.push(...(await firstTokens(1, direct, (text) => text.includes('"content":"Hello"'))));
      alone.parley.push(...(await firstTokens(1, throughParley, (text) => text.includes('event: token'))));
    }
    console.log(`## Time to first token on ${database.name} (loopback, OpenAI double)`);
    const added = (values: number[], base: number[], p: number) =>
      ms(percentile(values, p) - percentile(base, p));
    console.log(
      `one stream at a time: added by Parley p50 ${added(alone.parley, alone.direct, 50)}, p99 ${added(alone.parley, alone.direct, 99)}`,
    );
    console.log(`${streams} concurrent streams:`);
    console.log(
      `model double directly: p50 ${ms(percentile(baseline, 50))}, p99 ${ms(percentile(baseline, 99))}`,
    );
    console.log(
      `through Parley:        p50 ${ms(percentile(parley, 50))}, p99 ${ms(percentile(parley, 99))}`,
    );
    console.log(
      `added by Parley: p50 ${ms(percentile(parley, 50) - percentile(baseline, 50))}, p99 ${ms(percentile(parley, 99) - percentile(baseline, 99))} (auth, balance check, storing the message, SSE relay)`,
    );
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await running.stop();
    await model.close();
  }
}
