import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble } from '../../support/openai-double';
import { type RunningServer, startServer } from '../../support/server';
import { readEvents } from '../../support/sse';

describe('a reply cut off by a crash', () => {
  let model: OpenAiDouble;
  let dataDir: string;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    dataDir = mkdtempSync(join(tmpdir(), 'parley-crash-'));
  });
  afterAll(async () => {
    await server?.stop();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () =>
    startServer({
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      OPENAI_BASE_URL: model.url,
      RATE_LIMIT_OTP_PER_IP_PER_HOUR: '1000',
    });
  // The helpers of the in-process tests, pointed at the spawned process.
  const asTestServer = (running: RunningServer) => ({ url: running.url, dataDir }) as TestServer;

  it('keeps the partial reply after kill -9, marked interrupted and uncharged', async () => {
    server = await start();
    const user = await signUp(asTestServer(server));
    const bots = await call(asTestServer(server), '/api/v1/bot', { token: user.token });
    const assistant = bots.body.find((bot: { name: string }) => bot.name === 'Assistant');
    const topic = (
      await call(asTestServer(server), '/api/v1/topic', { token: user.token, body: { bot: assistant._id } })
    ).body._id as string;
    model.script(() => ({ chunks: Array.from({ length: 400 }, (_, index) => `w${index} `), delayMs: 10 }));

    const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'Write a long story.' }),
    });
    let streamed = '';
    const startedAt = Date.now();
    let atKill = '';
    let halfASecondBefore = '';
    const marks: { at: number; text: string }[] = [];
    const crashed = new Promise<void>((resolve) => {
      readEvents(response, (event) => {
        if (event.event !== 'token') return;
        streamed += event.data.text as string;
        marks.push({ at: Date.now(), text: streamed });
        if (Date.now() - startedAt > 1500 && !atKill) {
          atKill = streamed;
          halfASecondBefore = marks.findLast((mark) => mark.at <= Date.now() - 600)?.text ?? '';
          server?.crash().then(resolve);
        }
      }).catch(() => resolve());
    });
    await crashed;
    expect(atKill.length).toBeGreaterThan(0);

    server = await start();
    const stored = await call(asTestServer(server), `/api/v1/topic/${topic}`, { token: user.token });
    const reply = stored.body.messages[1];
    expect(stored.body.messages[0]).toMatchObject({
      role: 'user',
      text: 'Write a long story.',
      status: 'complete',
    });
    expect(reply).toMatchObject({ role: 'bot', status: 'interrupted' });
    expect(reply.cost).toBeUndefined();
    // At least what streamed about half a second before the kill, and nothing that never streamed.
    expect(atKill.startsWith(reply.text)).toBe(true);
    expect(reply.text.length).toBeGreaterThanOrEqual(halfASecondBefore.length);
    const billing = await call(asTestServer(server), `/payment/billing-info/${user.id}`, {
      token: user.token,
    });
    expect(billing.body).toMatchObject({ balance: 10, reserved: 0 });

    // The topic is free again: a new message gets a reply.
    model.script(() => ({ chunks: ['Back ', 'again.'] }));
    const next = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'Go on.' }),
    });
    expect((await readEvents(next)).at(-1)).toMatchObject({ event: 'done' });
  }, 90_000);
});
