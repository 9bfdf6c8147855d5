import { rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, type Json, signUp, type TestServer } from '../../support/app';
import { seededDataDir } from '../../support/dataTemplate';
import { type OpenAiDouble, startOpenAiDouble, toolSteps } from '../../support/openai-double';
import { type RunningServer, startServer } from '../../support/server';
import { readEvents } from '../../support/sse';
import { billing, giveTools, newTopic, readTopic, say } from './support';

/** A reply whose tool is still running when it is stopped, or when its node dies (a real process, kill -9). */
describe('a reply cut off during a tool call', () => {
  let model: OpenAiDouble;
  let pages: Server;
  let slowUrl: string;
  const hanging = new Set<ServerResponse>();
  let dataDir: string;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    // A page that never finishes: the fetch_url call runs until something ends it.
    pages = createServer((_, response) => {
      hanging.add(response);
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<p>Loading');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/slow`;
    // A copy of the migrated and seeded database: the first start is not what is tested here.
    dataDir = await seededDataDir('parley-tool-crash-');
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    for (const response of hanging) response.destroy();
    await new Promise((resolve) => pages.close(resolve));
    await model.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // The operator allows private addresses, so fetch_url reaches the page server on this machine.
  const start = () =>
    startServer({
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      OPENAI_BASE_URL: model.url,
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
      RATE_LIMIT_OTP_PER_IP_PER_HOUR: '1000',
    });
  const asTestServer = (running: RunningServer) => ({ url: running.url, dataDir }) as TestServer;

  it('stopped while the tool runs: kept with its step, not charged', async () => {
    server = await start();
    const app = asTestServer(server);
    const assistant = (await botIds(app)).Assistant;
    await giveTools(app, 'app', assistant, ['fetch_url']);
    model.script(
      toolSteps([{ call: { name: 'fetch_url', arguments: { url: slowUrl } } }, { answer: () => 'never' }]),
    );
    const user = await signUp(app);
    const topic = await newTopic(app, user, assistant);
    let stopped: Promise<Json> | undefined;
    const events = await say(app, user, topic, 'Read the slow page', (event) => {
      if (event.event === 'step' && (event.data.step as Json).status === 'running')
        stopped = call(app, `/api/v1/topic/${topic}/stop`, { token: user.token, body: {} });
    });
    expect((await stopped)?.body).toMatchObject({ stopped: true });
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'STOPPED' } });
    const reply = (await readTopic(app, user, topic)).messages[1];
    expect(reply).toMatchObject({
      status: 'stopped',
      steps: [
        {
          tool: 'fetch_url',
          arguments: { url: slowUrl },
          status: 'error',
          error: 'Stopped before it finished.',
        },
      ],
    });
    expect(reply.cost).toBeUndefined();
    expect(await billing(app, user)).toMatchObject({ balance: 10, reserved: 0 });
  }, 240_000);

  it('after kill -9 mid-tool the reply is interrupted with its text and steps, and not charged', async () => {
    server ??= await start();
    let app = asTestServer(server);
    const assistant = (await botIds(app)).Assistant;
    await giveTools(app, 'app', assistant, ['calculator', 'fetch_url']);
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: '40+2' } }, chunks: ['Looking it up. '] },
        { call: { name: 'fetch_url', arguments: { url: slowUrl } } },
        { answer: () => 'never' },
      ]),
    );
    const user = await signUp(app);
    const topic = await newTopic(app, user, assistant);
    const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'Add, then read the slow page' }),
    });
    const running = server;
    const crashed = new Promise<void>((resolve) => {
      readEvents(response, (event) => {
        const step = event.data.step as Json;
        if (event.event !== 'step' || step?.tool !== 'fetch_url' || step.status !== 'running') return;
        // A checkpoint (every 0.5 s) has stored the text by now; the tool is still running.
        setTimeout(() => running.crash().then(resolve), 1_000);
      }).catch(() => resolve());
    });
    await crashed;

    server = await start();
    app = asTestServer(server);
    const reply = (await readTopic(app, user, topic)).messages[1];
    expect(reply).toMatchObject({ role: 'bot', status: 'interrupted', text: 'Looking it up. ' });
    expect(reply.cost).toBeUndefined();
    expect(reply.steps).toEqual([
      expect.objectContaining({ tool: 'calculator', status: 'done', result: '40+2 = 42' }),
      expect.objectContaining({
        tool: 'fetch_url',
        status: 'error',
        error: 'The reply was interrupted before this call ended.',
      }),
    ]);
    expect(await billing(app, user)).toMatchObject({ balance: 10, reserved: 0 });
  }, 240_000);
});
