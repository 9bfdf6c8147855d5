import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, encrypter, signUp, type TestServer } from '../support/app';
import { type Cluster, startCluster } from '../support/cluster';
import { type OpenAiDouble, startOpenAiDouble } from '../support/openai-double';
import { readEvents, type ServerSentEvent } from '../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;

/** Two node processes on a throwaway PostgreSQL behind nginx (Debian's packages), as in production. */
describe('a cluster: two nodes, one PostgreSQL, nginx round-robin', () => {
  let model: OpenAiDouble;
  let cluster: Cluster;
  let database: pg.Client;
  /** A node by number, or nginx in front of both. */
  let node: (index: number) => TestServer;
  let balancer: TestServer;
  let bots: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    cluster = await startCluster(2, { OPENAI_BASE_URL: model.url, RATE_LIMIT_LOGIN_FAILURES: '5' });
    node = (index) =>
      ({ url: cluster.nodes[index].url, dataDir: cluster.nodes[index].dataDir }) as TestServer;
    balancer = { url: cluster.url, dataDir: '' } as TestServer;
    database = new pg.Client({ connectionString: cluster.postgres.url });
    await database.connect();
    const user = await signUp(node(0));
    const list = await call(balancer, '/api/v1/bot', { token: user.token });
    bots = Object.fromEntries(list.body.map((bot: { name: string; _id: string }) => [bot.name, bot._id]));
  }, 120_000);
  afterAll(async () => {
    await database?.end();
    await cluster?.stop();
    await model?.close();
  });

  const send = (server: TestServer, user: User, topic: string, text: string) =>
    fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text }),
    });
  const newTopic = async (user: User, bot: string) =>
    (await call(balancer, '/api/v1/topic', { token: user.token, body: { bot: bots[bot] } })).body
      ._id as string;

  it('signs up on one node, logs in on the other, and serves the session through nginx', async () => {
    const user = await signUp(node(0));
    const encrypt = await encrypter(node(1));
    const login = await call(node(1), '/auth/login', {
      body: { email: encrypt(user.email), password: encrypt(user.password) },
    });
    expect(login.status).toBe(200);
    for (let round = 0; round < 6; round += 1)
      expect((await call(balancer, '/api/v1/user/me', { token: login.body.token })).body._id).toBe(user.id);
  });

  it('answers one of two simultaneous messages to one topic on different nodes; the other gets 409', async () => {
    const user = await signUp(node(0));
    const topic = await newTopic(user, 'Assistant');
    model.script(() => ({ chunks: ['a ', 'slow ', 'reply'], delayMs: 200 }));
    const answers = await Promise.all([send(node(0), user, topic, 'one'), send(node(1), user, topic, 'two')]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409]);
    const streamed = answers.find((answer) => answer.status === 200) as Response;
    expect((await readEvents(streamed)).at(-1)?.event).toBe('done');
    const refused = answers.find((answer) => answer.status === 409) as Response;
    expect((await refused.json()).code).toBe('REPLY_IN_PROGRESS');
  });

  it('refuses a token on the other node at once after logout everywhere', async () => {
    const user = await signUp(node(0));
    expect((await call(node(1), '/api/v1/user/me', { token: user.token })).status).toBe(200);
    await call(node(0), '/auth/logout-everywhere', { method: 'POST', token: user.token, body: {} });
    await expect
      .poll(async () => (await call(node(1), '/api/v1/user/me', { token: user.token })).status, {
        timeout: 1000,
        interval: 50,
      })
      .toBe(401);
  });

  it('counts login failures across nodes', async () => {
    const user = await signUp(node(0));
    const statuses: number[] = [];
    for (const index of [0, 1, 0, 1, 0, 1]) {
      const answer = await call(node(index), '/auth/login', {
        body: { email: user.encrypt(user.email), password: user.encrypt('not the password') },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('lets no reply go unpaid when 50 simultaneous messages at a tiny balance are split over both nodes', async () => {
    const user = await signUp(node(0));
    await database.query('update users set balance = 0.1 where id = $1', [user.id]);
    const topics = await Promise.all(Array.from({ length: 50 }, () => newTopic(user, 'ELIZA')));
    const answers = await Promise.all(
      topics.map(async (topic, index) => {
        const response = await send(node(index % 2), user, topic, 'I am unhappy.');
        return {
          status: response.status,
          events: response.status === 200 ? await readEvents(response) : ([] as ServerSentEvent[]),
        };
      }),
    );
    const completed = answers.filter((answer) => answer.events.at(-1)?.event === 'done').length;
    expect(completed).toBe(10);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(40);
    expect(answers.some((answer) => answer.events.some((event) => event.event === 'error'))).toBe(false);
    const { rows } = await database.query(
      `select balance::float8 as balance, reserved::float8 as reserved,
              (select -sum(amount)::float8 from transactions where user_id = $1 and amount < 0) as charges
       from users where id = $1`,
      [user.id],
    );
    expect(rows[0]).toEqual({ balance: 0, reserved: 0, charges: 0.1 });
  });

  it('marks the reply of a killed node interrupted; the client, reattaching through nginx, sees its text', async () => {
    const user = await signUp(node(0));
    const topic = await newTopic(user, 'Assistant');
    model.script(() => ({ chunks: Array.from({ length: 400 }, (_, index) => `w${index} `), delayMs: 10 }));
    const response = await send(node(0), user, topic, 'Write a long story.');
    let streamed = '';
    let lastId = 0;
    const marks: { at: number; text: string }[] = [];
    let halfASecondBefore = '';
    await new Promise<void>((resolve) => {
      readEvents(response, (event) => {
        if (event.event !== 'token' || halfASecondBefore) return;
        streamed += event.data.text as string;
        lastId = event.id ?? lastId;
        marks.push({ at: Date.now(), text: streamed });
        if (streamed.length > 400) {
          halfASecondBefore = marks.findLast((mark) => mark.at <= Date.now() - 600)?.text ?? '';
          cluster.nodes[0].crash().then(resolve);
        }
      }).catch(() => resolve());
    });

    // The client reattaches through nginx, which now reaches the other node only.
    const again = await fetch(`${balancer.url}/api/v1/topic/${topic}/stream`, {
      headers: { authorization: `Bearer ${user.token}`, 'last-event-id': String(lastId) },
    });
    const started = Date.now();
    const events = await readEvents(again);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'INTERRUPTED' } });

    const stored = await call(balancer, `/api/v1/topic/${topic}`, { token: user.token });
    const reply = stored.body.messages.at(-1);
    expect(reply).toMatchObject({ role: 'bot', status: 'interrupted' });
    expect(reply.text.length).toBeGreaterThanOrEqual(halfASecondBefore.length);
    // What the client had plus what the reattached stream sent is the stored reply; or, had the node
    // not checkpointed all the client saw, the stored reply is the start of it.
    const resumed = events.filter((event) => event.event === 'token').map((event) => event.data.text);
    if (reply.text.length >= streamed.length) expect(`${streamed}${resumed.join('')}`).toBe(reply.text);
    else expect(streamed.startsWith(reply.text)).toBe(true);
    const billing = await call(balancer, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body).toMatchObject({ reserved: 0 });

    model.script(() => ({ chunks: ['Still ', 'here.'] }));
    const next = await send(balancer, user, topic, 'Are you there?');
    expect((await readEvents(next)).at(-1)).toMatchObject({ event: 'done' });
  });
});
