import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, signUp, startApp, type TestServer } from '../../support/app';
import { type ChatRequest, type OpenAiDouble, startOpenAiDouble, textOf } from '../../support/openai-double';
import { type RunningPostgres, startPostgres } from '../../support/postgres';
import { readEvents, type ServerSentEvent } from '../../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;
interface StoredMessage {
  _id: string;
  parent: string | null;
  role: 'user' | 'bot';
  text: string;
  status: string;
}

const echo = (request: ChatRequest) => ({
  chunks: ['You said: ', textOf(request.messages.at(-1)?.content)],
});

/** Sends a message (or regenerates) and reads the whole reply. */
async function stream(server: TestServer, user: User, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream'))
    return { status: response.status, body: await response.json(), events: [] as ServerSentEvent[] };
  return { status: response.status, body: null, events: await readEvents(response) };
}

describe('messages as a tree: edit, regenerate, continue, switch branches', () => {
  let model: OpenAiDouble;
  let server: TestServer;
  let bots: Record<string, string>;
  let assistant: string;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    // Built-in bots write a word every 20 ms, so that one can be stopped half-way.
    server = await startApp({ OPENAI_BASE_URL: model.url, BUILTIN_TOKEN_DELAY_MS: '20' });
    bots = await botIds(server);
    assistant = bots.Assistant;
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });
  const topicOf = async (user: User, bot = assistant) =>
    (await call(server, '/api/v1/topic', { token: user.token, body: { bot } })).body._id as string;
  const read = async (user: User, topic: string) =>
    (await call(server, `/api/v1/topic/${topic}`, { token: user.token })).body as {
      head: string;
      messages: (StoredMessage & { cost?: number })[];
    };
  const say = (user: User, topic: string, text: string, parent?: string | null) =>
    stream(
      server,
      user,
      `/api/v1/topic/${topic}/message`,
      parent === undefined ? { text } : { text, parent },
    );
  const branchTexts = (topic: { head: string; messages: StoredMessage[] }) => {
    const byId = new Map(topic.messages.map((message) => [message._id, message]));
    const texts: string[] = [];
    for (
      let message = byId.get(topic.head);
      message;
      message = message.parent ? byId.get(message.parent) : undefined
    )
      texts.unshift(message.text);
    return texts;
  };

  it('links each message to the one it follows; the head is the last reply', async () => {
    model.script(echo);
    const user = await signUp(server);
    const topic = await topicOf(user);
    await say(user, topic, 'first');
    await say(user, topic, 'second');
    const stored = await read(user, topic);
    const [a, b, c, d] = stored.messages;
    expect(stored.messages.map((message) => [message.role, message.parent])).toEqual([
      ['user', null],
      ['bot', a._id],
      ['user', b._id],
      ['bot', c._id],
    ]);
    expect(stored.head).toBe(d._id);
    expect(d).toMatchObject({ bot: assistant, cost: 0.05, status: 'complete' });
  });

  it('edits and resends on a new branch, keeps the old one, and tells the model only the new branch', async () => {
    model.script(echo);
    const user = await signUp(server);
    const topic = await topicOf(user);
    await say(user, topic, 'first');
    await say(user, topic, 'second');
    const [, firstReply] = (await read(user, topic)).messages;
    const edited = await say(user, topic, 'second, better', firstReply._id);
    expect(edited.events.at(-1)).toMatchObject({ event: 'done' });
    expect(
      model.requests
        .at(-1)
        ?.messages.map((message) => message.content)
        .slice(-3),
    ).toEqual(['first', 'You said: first', 'second, better']);
    const stored = await read(user, topic);
    expect(stored.messages).toHaveLength(6);
    expect(branchTexts(stored)).toEqual([
      'first',
      'You said: first',
      'second, better',
      'You said: second, better',
    ]);

    // The old branch is one switch away; switching to its user message shows its newest leaf.
    const old = stored.messages.find((message) => message.text === 'second') as StoredMessage;
    const switched = await call(server, `/api/v1/topic/${topic}`, {
      method: 'PATCH',
      token: user.token,
      body: { head: old._id },
    });
    expect(switched.status).toBe(200);
    expect(branchTexts(switched.body)).toEqual(['first', 'You said: first', 'second', 'You said: second']);

    // parent: null edits the first message: a new root.
    await say(user, topic, 'a new start', null);
    expect(branchTexts(await read(user, topic))).toEqual(['a new start', 'You said: a new start']);
    expect(model.requests.at(-1)?.messages.filter((message) => message.role !== 'system')).toHaveLength(1);
  });

  it('regenerates a reply as a new sibling, charged like any reply', async () => {
    const user = await signUp(server);
    const topic = await topicOf(user);
    model.script(() => ({ chunks: ['Answer one'] }));
    await say(user, topic, 'question');
    const [question, first] = (await read(user, topic)).messages;
    model.script(() => ({ chunks: ['Answer two'] }));
    const again = await stream(server, user, `/api/v1/topic/${topic}/message/${first._id}/regenerate`);
    expect(again.events[0]).toMatchObject({ event: 'message', data: { botMessageId: expect.any(String) } });
    expect(again.events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.05 } });
    expect(model.requests.at(-1)?.messages.at(-1)?.content).toBe('question');
    const stored = await read(user, topic);
    expect(
      stored.messages.filter((message) => message.parent === question._id).map((message) => message.text),
    ).toEqual(['Answer one', 'Answer two']);
    expect(branchTexts(stored)).toEqual(['question', 'Answer two']);
    const billing = await call(server, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body.balance).toBeCloseTo(9.9, 10);
  });

  it('refuses bad parents, other people’s messages, editing replies and regenerating during a reply', async () => {
    model.script(echo);
    const user = await signUp(server);
    const stranger = await signUp(server);
    const topic = await topicOf(user);
    const elsewhere = await topicOf(user);
    await say(user, topic, 'mine');
    await say(user, elsewhere, 'other topic');
    const [mine, reply] = (await read(user, topic)).messages;
    const [, otherReply] = (await read(user, elsewhere)).messages;
    const count = async () => (await read(user, topic)).messages.length;

    expect((await say(user, topic, 'x', otherReply._id)).status).toBe(404);
    expect(await say(user, topic, 'x', mine._id)).toMatchObject({
      status: 400,
      body: { code: 'NOT_EDITABLE' },
    });
    expect((await say(stranger, topic, 'x', reply._id)).status).toBe(404);
    expect(
      (await stream(server, stranger, `/api/v1/topic/${topic}/message/${reply._id}/regenerate`)).status,
    ).toBe(404);
    expect(
      (await stream(server, user, `/api/v1/topic/${topic}/message/${otherReply._id}/regenerate`)).status,
    ).toBe(404);
    const acme = await signUp(server, 'acme');
    expect(
      (
        await call(server, `/api/v1/topic/${topic}`, {
          method: 'PATCH',
          token: user.token,
          body: { head: otherReply._id },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(server, `/api/v1/topic/${topic}/stream`, { token: acme.token, tenant: 'acme' })).status,
    ).toBe(404);
    expect(await count()).toBe(2);

    model.script(() => ({ chunks: ['slow ', 'reply'], delayMs: 200 }));
    const slow = say(user, topic, 'take your time');
    await expect.poll(async () => (await read(user, topic)).messages.length).toBe(4);
    const busy = await stream(server, user, `/api/v1/topic/${topic}/message/${reply._id}/regenerate`);
    expect(busy).toMatchObject({ status: 409, body: { code: 'REPLY_IN_PROGRESS' } });
    expect((await slow).events.at(-1)?.event).toBe('done');
    expect(await count()).toBe(4);
  });

  const carryOn = (user: User, topic: string, messageId: string) =>
    stream(server, user, `/api/v1/topic/${topic}/message/${messageId}/continue`);
  const billing = async (user: User) =>
    (await call(server, `/payment/billing-info/${user.id}`, { token: user.token })).body as {
      balance: number;
      reserved: number;
      transactions: { amount: number }[];
    };
  /** Starts a reply (`start`), stops it once what is stored of it is longer than `past`, and waits for its end. */
  const stopAfter = async <T>(user: User, topic: string, past: number, start: Promise<T>) => {
    const writing = async () =>
      (await read(user, topic)).messages.find((message) => message.status === 'streaming')?.text.length ?? 0;
    await expect.poll(writing, { timeout: 5000 }).toBeGreaterThan(past);
    const stopped = await call(server, `/api/v1/topic/${topic}/stop`, {
      method: 'POST',
      token: user.token,
      body: {},
    });
    expect(stopped.body).toMatchObject({ stopped: true });
    return start;
  };
  const slowWords = (prefix: string) => ({
    chunks: Array.from({ length: 300 }, (_, index) => `${prefix}${index} `),
    delayMs: 10,
  });

  it('goes on in the same message, streamed after its text, and charges one reply once it completes', async () => {
    const user = await signUp(server);
    const topic = await topicOf(user);
    model.script(() => slowWords('a'));
    const first = await stopAfter(
      user,
      topic,
      10,
      stream(server, user, `/api/v1/topic/${topic}/message`, { text: 'Tell me a story' }),
    );
    expect(first.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'STOPPED' } });
    const [question, reply] = (await read(user, topic)).messages;
    expect(reply).toMatchObject({ status: 'stopped' });
    const partial = reply.text;
    expect(await billing(user)).toMatchObject({ balance: 10, reserved: 0 });
    // Written last month, continued this month: the month that holds the new reservation gets it back.
    await server.app.db.query(
      `update messages set created_at = created_at - interval '40 days', reserved_at = reserved_at - interval '40 days'
       where id = $1`,
      [reply._id],
    );
    const spent = async () =>
      Number(
        (
          await server.app.db.query<{ month_spent: string }>('select month_spent from users where id = $1', [
            user.id,
          ])
        ).rows[0].month_spent,
      );

    // Followed again from where a client left off (Last-Event-ID), as any reply is; stopped again
    // while continued: what it wrote is kept, nothing is charged.
    model.script(() => slowWords('b'));
    const continuing = carryOn(user, topic, reply._id);
    await expect.poll(async () => (await read(user, topic)).messages[1].status).toBe('streaming');
    const leave = new AbortController();
    const followed = await fetch(`${server.url}/api/v1/topic/${topic}/stream`, {
      headers: { authorization: `Bearer ${user.token}`, 'last-event-id': String(partial.length) },
      signal: leave.signal,
    });
    let resumed = '';
    await readEvents(followed, (event) => {
      if (event.event !== 'token') return;
      resumed += event.data.text;
      expect(event.id).toBe(partial.length + resumed.length);
      if (resumed.length > 6) leave.abort();
    });
    expect(resumed.startsWith('b0 b1 ')).toBe(true);
    const again = await stopAfter(user, topic, partial.length + 10, continuing);
    expect(again.events[0]).toMatchObject({
      event: 'message',
      data: { userMessageId: question._id, botMessageId: reply._id },
    });
    expect(again.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'STOPPED' } });
    const kept = (await read(user, topic)).messages;
    expect(kept).toHaveLength(2);
    expect(kept[1]).toMatchObject({ _id: reply._id, status: 'stopped' });
    expect(kept[1].text.startsWith(`${partial}b0 `)).toBe(true);
    expect(await billing(user)).toMatchObject({ balance: 10, reserved: 0 });
    expect(await spent()).toBe(0);

    // The model is given its reply so far as its last turn, and asked to go on.
    const sofar = kept[1].text;
    model.script(() => ({ chunks: ['and ', 'they lived happily.'] }));
    const done = await carryOn(user, topic, reply._id);
    const sent = model.requests.at(-1)?.messages.map(({ role, content }) => [role, textOf(content)]);
    expect(sent?.slice(-3)).toEqual([
      ['user', 'Tell me a story'],
      ['assistant', sofar],
      ['user', expect.stringMatching(/^Your last reply was cut off\. Continue it/)],
    ]);
    // Only what follows is streamed, its ids counting from the text already there (Last-Event-ID).
    const tokens = done.events.filter((event) => event.event === 'token');
    expect(tokens.map((event) => event.data.text).join('')).toBe('and they lived happily.');
    expect(tokens[0].id).toBe(sofar.length + 'and '.length);
    expect(done.events.at(-1)).toMatchObject({
      event: 'done',
      data: { botMessageId: reply._id, cost: 0.05 },
    });
    const stored = await read(user, topic);
    expect(stored.messages).toHaveLength(2);
    expect(stored.head).toBe(reply._id);
    expect(stored.messages[1]).toMatchObject({
      _id: reply._id,
      text: `${sofar}and they lived happily.`,
      status: 'complete',
      cost: 0.05,
    });
    const paid = await billing(user);
    expect(paid).toMatchObject({ balance: 9.95, reserved: 0 });
    expect(paid.transactions.map((transaction) => transaction.amount)).toEqual([-0.05, 10]);
    expect(await spent()).toBe(0.05);
    // Complete, it has nothing to continue.
    expect(await carryOn(user, topic, reply._id)).toMatchObject({
      status: 409,
      body: { code: 'NOT_CONTINUABLE' },
    });
  });

  it('lets a built-in bot go on with the words it would have written', async () => {
    const user = await signUp(server);
    const whole = await topicOf(user, bots.Librarian);
    const answer = await stream(server, user, `/api/v1/topic/${whole}/message`, { text: 'What is in here?' });
    const expected = (await read(user, whole)).messages[1].text;
    expect(answer.events.at(-1)?.event).toBe('done');

    // Stopped at its first word.
    const topic = await topicOf(user, bots.Librarian);
    const cut = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'What is in here?' }),
    });
    let stopping: Promise<unknown> | undefined;
    const events = await readEvents(cut, (event) => {
      if (event.event === 'token')
        stopping ??= call(server, `/api/v1/topic/${topic}/stop`, {
          method: 'POST',
          token: user.token,
          body: {},
        });
    });
    await stopping;
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'STOPPED' } });
    const [, reply] = (await read(user, topic)).messages;
    expect(reply.text.length).toBeLessThan(expected.length);
    expect((await carryOn(user, topic, reply._id)).events.at(-1)?.event).toBe('done');
    expect((await read(user, topic)).messages[1]).toMatchObject({ text: expected, status: 'complete' });
  });

  it('refuses other people’s replies, messages that are not a reply that ended early, and a busy topic', async () => {
    const user = await signUp(server);
    const topic = await topicOf(user);
    model.script(() => slowWords('c'));
    await stopAfter(user, topic, 5, stream(server, user, `/api/v1/topic/${topic}/message`, { text: 'one' }));
    const [question, reply] = (await read(user, topic)).messages;
    const stranger = await signUp(server);
    const acme = await signUp(server, 'acme');
    expect((await carryOn(stranger, topic, reply._id)).status).toBe(404);
    const elsewhere = await fetch(`${server.url}/api/v1/topic/${topic}/message/${reply._id}/continue`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${acme.token}`,
        organization: 'acme',
      },
      body: '{}',
    });
    expect(elsewhere.status).toBe(404);
    expect(await carryOn(user, topic, question._id)).toMatchObject({
      status: 409,
      body: { code: 'NOT_CONTINUABLE' },
    });
    expect((await carryOn(user, topic, 'no-such-message')).status).toBe(404);

    // A reply something was sent after is part of the conversation: it is not continued.
    model.script(echo);
    await stream(server, user, `/api/v1/topic/${topic}/message`, { text: 'two' });
    expect(await carryOn(user, topic, reply._id)).toMatchObject({
      status: 409,
      body: { code: 'NOT_CONTINUABLE' },
    });

    // One reply at a time: continuing waits for the reply being written.
    model.script(() => slowWords('d'));
    const writing = stream(server, user, `/api/v1/topic/${topic}/message`, { text: 'three' });
    await stopAfter(user, topic, 5, writing);
    const stopped = (await read(user, topic)).messages.filter((message) => message.role === 'bot').at(-1);
    model.script(() => slowWords('e'));
    const going = carryOn(user, topic, stopped?._id ?? '');
    await expect.poll(async () => (await read(user, topic)).messages.at(-1)?.status).toBe('streaming');
    expect(await carryOn(user, topic, stopped?._id ?? '')).toMatchObject({
      status: 409,
      body: { code: 'REPLY_IN_PROGRESS' },
    });
    await stopAfter(user, topic, 0, going);
    expect(await billing(user)).toMatchObject({ balance: 9.95, reserved: 0 });
  });
});

describe('replies that survive the client: reattach with Last-Event-ID, stop, unattended', () => {
  let model: OpenAiDouble;
  let server: TestServer;
  let assistant: string;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url, REPLY_UNATTENDED_SECONDS: '1' });
    assistant = (await botIds(server)).Assistant;
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  const words = Array.from({ length: 60 }, (_, index) => `w${index} `);

  it('reattaches from the last event id and receives exactly the rest, then done', async () => {
    const user = await signUp(server);
    const topic = (await call(server, '/api/v1/topic', { token: user.token, body: { bot: assistant } })).body
      ._id;
    model.script(() => ({ chunks: words, delayMs: 15 }));
    const abort = new AbortController();
    const first = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'count' }),
      signal: abort.signal,
    });
    let received = '';
    let lastId = '0';
    await readEvents(first, (event) => {
      if (event.event !== 'token') return;
      received += event.data.text;
      lastId = String(event.id);
      if (received.length > 20) abort.abort();
    });
    expect(Number(lastId)).toBe(received.length);

    const again = await fetch(`${server.url}/api/v1/topic/${topic}/stream`, {
      headers: { authorization: `Bearer ${user.token}`, 'last-event-id': lastId },
    });
    expect(again.headers.get('content-type')).toContain('text/event-stream');
    const rest = await readEvents(again);
    expect(rest.at(-1)?.event).toBe('done');
    const tokens = rest.filter((event) => event.event === 'token');
    expect(received + tokens.map((event) => event.data.text).join('')).toBe(words.join(''));
    expect(tokens.at(-1)?.id).toBe(words.join('').length);

    const stranger = await signUp(server);
    expect((await call(server, `/api/v1/topic/${topic}/stream`, { token: stranger.token })).status).toBe(404);
    // Nothing streams any more.
    expect((await call(server, `/api/v1/topic/${topic}/stream`, { token: user.token })).status).toBe(204);
  });

  it('stops a reply nobody follows for the unattended time, kept and not charged', async () => {
    const user = await signUp(server);
    const topic = (await call(server, '/api/v1/topic', { token: user.token, body: { bot: assistant } })).body
      ._id;
    model.script(() => ({ chunks: Array.from({ length: 400 }, (_, index) => `x${index} `), delayMs: 10 }));
    const abort = new AbortController();
    const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'go' }),
      signal: abort.signal,
    });
    await readEvents(response, (event) => {
      if (event.event === 'token') abort.abort();
    });
    await expect
      .poll(
        async () =>
          (await call(server, `/api/v1/topic/${topic}`, { token: user.token })).body.messages[1]?.status,
        {
          timeout: 5000,
        },
      )
      .toBe('stopped');
    const billing = await call(server, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body).toMatchObject({ balance: 10, reserved: 0 });
  });

  it('never cuts off a reply this node is writing, however late its lease (a busy event loop renews late)', async () => {
    const user = await signUp(server);
    const topic = (await call(server, '/api/v1/topic', { token: user.token, body: { bot: assistant } })).body
      ._id;
    // Four seconds of reply: longer than the sweep's period (half a lease).
    model.script(() => ({ chunks: Array.from({ length: 40 }, (_, index) => `y${index} `), delayMs: 100 }));
    const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'go on' }),
    });
    // As if every renewal came too late: the lease is always over when the sweep looks.
    const late = setInterval(() => {
      void server.app.db
        .query(
          `update messages set lease_until = now() - interval '1 minute'
           where status = 'streaming' and topic_id = $1`,
          [topic],
        )
        .catch(() => {});
    }, 50);
    const events = await readEvents(response).finally(() => clearInterval(late));
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { cost: expect.any(Number) } });
    const reply = (await call(server, `/api/v1/topic/${topic}`, { token: user.token })).body.messages[1];
    expect(reply.status).toBe('complete');
  });
});

describe('two nodes on one PostgreSQL: follow and stop a reply written by the other node', () => {
  let postgres: RunningPostgres;
  let model: OpenAiDouble;
  let nodes: TestServer[];

  beforeAll(async () => {
    postgres = await startPostgres();
    model = await startOpenAiDouble();
    const env = {
      DATABASE_URL: postgres.url,
      OPENAI_BASE_URL: model.url,
      JWT_SECRET: 'one secret for every node',
    };
    nodes = [await startApp(env), await startApp(env)];
  }, 90_000);
  afterAll(async () => {
    for (const node of nodes ?? []) await node.close();
    await model?.close();
    postgres?.stop();
  });

  it('follows from the other node to the end, and stops from it', async () => {
    const [a, b] = nodes;
    // One RSA key pair per data folder: sign up on node a, use the token on both.
    const user = await signUp(a);
    const bots = await call(b, '/api/v1/bot', { token: user.token });
    const assistant = bots.body.find((bot: { name: string }) => bot.name === 'Assistant')._id;
    const topic = (await call(a, '/api/v1/topic', { token: user.token, body: { bot: assistant } })).body._id;

    model.script(() => ({ chunks: words(40), delayMs: 20 }));
    const writing = stream(a, user, `/api/v1/topic/${topic}/message`, { text: 'count' });
    await expect
      .poll(async () => (await call(b, `/api/v1/topic/${topic}`, { token: user.token })).body.messages.length)
      .toBe(2);
    const followed = await fetch(`${b.url}/api/v1/topic/${topic}/stream`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const events = await readEvents(followed);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.05 } });
    expect(
      events
        .filter((event) => event.event === 'token')
        .map((event) => event.data.text)
        .join(''),
    ).toBe(words(40).join(''));
    expect((await writing).events.at(-1)?.event).toBe('done');

    model.script(() => ({ chunks: words(400), delayMs: 10 }));
    const long = stream(a, user, `/api/v1/topic/${topic}/message`, { text: 'count more' });
    const replyText = async () => {
      const { messages } = (await call(b, `/api/v1/topic/${topic}`, { token: user.token })).body;
      return messages.length === 4 ? messages[3].text.length : 0;
    };
    await expect.poll(replyText).toBeGreaterThan(10);
    const stopped = await call(b, `/api/v1/topic/${topic}/stop`, {
      method: 'POST',
      token: user.token,
      body: {},
    });
    expect(stopped.body).toMatchObject({ stopped: true });
    const ended = await long;
    expect(ended.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'STOPPED' } });
    const last = (await call(a, `/api/v1/topic/${topic}`, { token: user.token })).body.messages.at(-1);
    expect(last.status).toBe('stopped');
    expect(last.text).not.toContain('w399');
    const billing = await call(b, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body).toMatchObject({ balance: 9.95, reserved: 0 });
  });
});

function words(count: number) {
  return Array.from({ length: count }, (_, index) => `w${index} `);
}
