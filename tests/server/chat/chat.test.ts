import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../../support/openai-double';
import { readEvents } from '../../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;

/** ELIZA's words as the 1966 paper prints them: capitals, no punctuation. */
const normal = (text: string) =>
  text
    .toUpperCase()
    .replace(/[^A-Z' ]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('chat: topics and streamed replies over real HTTP and SSE', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let bots: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({
      OPENAI_BASE_URL: model.url,
      OPENAI_IDLE_TIMEOUT_MS: '400',
      BUILTIN_TOKEN_DELAY_MS: '1',
    });
    const user = await signUp(server);
    const list = await call(server, '/api/v1/bot', { token: user.token });
    bots = Object.fromEntries(list.body.map((bot: { name: string; _id: string }) => [bot.name, bot._id]));
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  const newTopic = async (user: User, bot: string) => {
    const answer = await call(server, '/api/v1/topic', { token: user.token, body: { bot: bots[bot] } });
    expect(answer.status).toBe(201);
    return answer.body._id as string;
  };
  const send = (user: User, topic: string, text: string, signal?: AbortSignal) =>
    fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text }),
      signal,
    });
  const reply = async (user: User, topic: string, text: string) => {
    const response = await send(user, topic, text);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const events = await readEvents(response);
    const tokens = events
      .filter((event) => event.event === 'token')
      .map((event) => event.data.text)
      .join('');
    return { events, tokens, last: events.at(-1) };
  };

  it('talks with ELIZA through the classic 1966 dialogue, token by token, charging each reply', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'ELIZA');
    const dialogue: [string, string][] = [
      ['Men are all alike.', 'IN WHAT WAY'],
      ["They're always bugging us about something or other.", 'CAN YOU THINK OF A SPECIFIC EXAMPLE'],
      ['Well, my boyfriend made me come here.', 'YOUR BOYFRIEND MADE YOU COME HERE'],
      ["He says I'm depressed much of the time.", 'I AM SORRY TO HEAR YOU ARE DEPRESSED'],
      ["It's true. I am unhappy.", 'DO YOU THINK COMING HERE WILL HELP YOU NOT TO BE UNHAPPY'],
      ['I need some help, that much seems certain.', 'WHAT WOULD IT MEAN TO YOU IF YOU GOT SOME HELP'],
      ['Perhaps I could learn to get along with my mother.', 'TELL ME MORE ABOUT YOUR FAMILY'],
      ['My mother takes care of me.', 'WHO ELSE IN YOUR FAMILY TAKES CARE OF YOU'],
      ['My father.', 'YOUR FATHER'],
      ['You are like my father in some ways.', 'WHAT RESEMBLANCE DO YOU SEE'],
      [
        "You are not very aggressive but I think you don't want me to notice that.",
        'WHAT MAKES YOU THINK I AM NOT VERY AGGRESSIVE',
      ],
      ["You don't argue with me.", "WHY DO YOU THINK I DON'T ARGUE WITH YOU"],
      ['You are afraid of me.', 'DOES IT PLEASE YOU TO BELIEVE I AM AFRAID OF YOU'],
      ['My father is afraid of everybody.', 'WHAT ELSE COMES TO YOUR MIND WHEN YOU THINK OF YOUR FATHER'],
      ['Bullies.', 'DOES THAT HAVE ANYTHING TO DO WITH THE FACT THAT YOUR BOYFRIEND MADE YOU COME HERE'],
    ];
    let balance = 10;
    for (const [said, expected] of dialogue) {
      const { events, tokens, last } = await reply(user, topic, said);
      expect(events[0]).toMatchObject({ event: 'message', data: { userMessageId: expect.any(String) } });
      expect(events.filter((event) => event.event === 'token').length).toBeGreaterThan(1);
      expect(normal(tokens)).toBe(expected);
      balance = Math.round((balance - 0.01) * 100) / 100;
      expect(last).toMatchObject({ event: 'done', data: { cost: 0.01, balance } });
    }
    const stored = await call(server, `/api/v1/topic/${topic}`, { token: user.token });
    expect(stored.body.title).toBe('Men are all alike.');
    expect(stored.body.messages).toHaveLength(30);
    const billing = await call(server, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body.balance).toBe(balance);
    expect(billing.body.transactions[0]).toMatchObject({ amount: -0.01, description: 'Reply from ELIZA' });
  });

  it('answers what a person says of themselves before what is theirs, and never with a bare fragment', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'ELIZA');
    const cases: [string, string][] = [
      ['I am worried about my exams', 'IS IT BECAUSE YOU ARE WORRIED ABOUT YOUR EXAMS THAT YOU CAME TO ME'],
      ["I'm afraid of my neighbour.", 'HOW LONG HAVE YOU BEEN AFRAID OF YOUR NEIGHBOUR'],
      ['My exams worry me.', 'YOUR EXAMS WORRY YOU'],
    ];
    for (const [said, expected] of cases) {
      const { tokens } = await reply(user, topic, said);
      expect(normal(tokens)).toBe(expected);
    }
  });

  it('calculates exactly, explains bad expressions, and costs nothing', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Calculator');
    expect((await reply(user, topic, '0.1 + 0.2')).tokens).toBe('`0.1 + 0.2` = **0.3**');
    expect((await reply(user, topic, '(1.5 + 2) × 4 - 2^3')).tokens).toContain('**6**');
    expect((await reply(user, topic, '1 / (2 - 2)')).tokens).toBe(
      "I can't calculate that: Division by zero.",
    );
    expect((await reply(user, topic, '2 * (3 + ')).tokens).toMatch(/ends too early|missing/);
    const { last } = await reply(user, topic, '7 % 4');
    expect(last?.data).toMatchObject({ cost: 0, balance: 10 });
  });

  it('translates with the translator bot: catalogs first, then the model, remembered', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Translator');
    expect((await reply(user, topic, 'translate to German: Log in')).tokens).toBe('Anmelden');
    const asked = model.requests.length;
    expect((await reply(user, topic, 'translate to French: a new sentence')).tokens).toBe(
      'You said: a new sentence',
    );
    expect(model.requests.at(-1)).toMatchObject({ stream: false });
    expect((await reply(user, topic, 'translate to French: a new sentence')).tokens).toBe(
      'You said: a new sentence',
    );
    expect(model.requests.length).toBe(asked + 1);
    expect((await reply(user, topic, 'please translate something')).tokens).toMatch(
      /translate to German: Welcome to Parley/,
    );
  });

  it('streams a model reply, sending the system prompt and the history', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Assistant');
    expect((await reply(user, topic, 'first question')).tokens).toBe('You said: first question');
    expect((await reply(user, topic, 'second question')).tokens).toBe('You said: second question');
    const sent = model.requests.at(-1);
    expect(sent?.stream).toBe(true);
    expect(sent?.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent?.messages[2].content).toBe('You said: first question');
  });

  it('keeps the message and the partial reply, marked failed and uncharged, when the model fails mid-stream', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Assistant');
    model.script(() => ({ chunks: ['Half ', 'an ', 'answer'], end: 'drop' }));
    const dropped = await reply(user, topic, 'tell me');
    expect(dropped.tokens).toBe('Half an answer');
    expect(dropped.last).toMatchObject({
      event: 'error',
      data: { code: 'PROVIDER_INTERRUPTED', botMessageId: expect.any(String) },
    });

    model.script(() => ({ chunks: ['The model is overloaded'], status: 503 }));
    const refused = await reply(user, topic, 'again');
    expect(refused.last).toMatchObject({ event: 'error', data: { code: 'PROVIDER_ERROR' } });
    expect(refused.last?.data.error).toContain('The model is overloaded');

    model.script(() => ({ chunks: ['Stalled '], end: 'stall' }));
    const stalled = await reply(user, topic, 'and again');
    expect(stalled.last).toMatchObject({ event: 'error', data: { code: 'PROVIDER_TIMEOUT' } });

    const stored = await call(server, `/api/v1/topic/${topic}`, { token: user.token });
    expect(
      stored.body.messages.map((message: { role: string; text: string; status: string }) => [
        message.role,
        message.text,
        message.status,
      ]),
    ).toEqual([
      ['user', 'tell me', 'complete'],
      ['bot', 'Half an answer', 'failed'],
      ['user', 'again', 'complete'],
      ['user', 'and again', 'complete'],
      ['bot', 'Stalled ', 'failed'],
    ]);
    const billing = await call(server, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body.balance).toBe(10);
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });

  it('keeps generating when the client goes away, and stops on POST /stop, keeping the partial reply', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Assistant');
    model.script(() => ({ chunks: Array.from({ length: 200 }, (_, index) => `word${index} `), delayMs: 10 }));
    const abort = new AbortController();
    const response = await send(user, topic, 'write a long story', abort.signal);
    let tokens = 0;
    await readEvents(response, (event) => {
      if (event.event === 'token' && ++tokens === 5) abort.abort();
    });
    // The reply goes on without anyone attached…
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = await call(server, `/api/v1/topic/${topic}/stop`, {
      method: 'POST',
      token: user.token,
      body: {},
    });
    expect(stopped).toMatchObject({ status: 200, body: { stopped: true } });
    await expect
      .poll(
        async () =>
          (await call(server, `/api/v1/topic/${topic}`, { token: user.token })).body.messages[1].status,
      )
      .toBe('stopped');
    const stored = await call(server, `/api/v1/topic/${topic}`, { token: user.token });
    // …so more than the five tokens read arrived, but not the whole reply.
    expect(stored.body.messages[1].text).toMatch(/^word0 word1 word2 word3 word4 word5/);
    expect(stored.body.messages[1].text).not.toContain('word199');
    const billing = await call(server, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body).toMatchObject({ balance: 10, reserved: 0 });
    expect(
      (await call(server, `/api/v1/topic/${topic}/stop`, { method: 'POST', token: user.token, body: {} }))
        .body,
    ).toEqual({ stopped: false });
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });

  it('refuses a reply the balance cannot pay with 402 before generating anything', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'ELIZA');
    await server.app.db.query('update users set balance = 0.005 where id = $1', [user.id]);
    const response = await send(user, topic, 'hello');
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: 'Insufficient balance', code: 'INSUFFICIENT_BALANCE' });
    expect((await call(server, `/api/v1/topic/${topic}`, { token: user.token })).body.messages).toEqual([]);
    const calculator = await newTopic(user, 'Calculator');
    expect((await reply(user, calculator, '1+1')).tokens).toContain('**2**');
  });

  it('tells the user when the balance runs low', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'ELIZA');
    await server.app.db.query('update users set balance = 1.005 where id = $1', [user.id]);
    await reply(user, topic, 'hello');
    const notifications = await call(server, '/api/v1/notification', { token: user.token });
    expect(notifications.body.map((item: { title: string }) => item.title)).toContain('Your balance is low');
  });

  it('writes one reply at a time per topic', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Assistant');
    model.script(() => ({ chunks: ['slow ', 'reply'], delayMs: 150 }));
    const first = send(user, topic, 'one');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await send(user, topic, 'two');
    expect(second.status).toBe(409);
    expect((await second.json()).code).toBe('REPLY_IN_PROGRESS');
    expect((await readEvents(await first)).at(-1)?.event).toBe('done');
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });

  it('keeps topics to their user and organization', async () => {
    const [alice, bob, carol] = [await signUp(server), await signUp(server), await signUp(server, 'acme')];
    const topic = await newTopic(alice, 'Calculator');
    await reply(alice, topic, '2+2');
    expect((await call(server, '/api/v1/topic', { token: alice.token })).body).toHaveLength(1);
    expect((await call(server, '/api/v1/topic', { token: bob.token })).body).toEqual([]);
    for (const [method, body] of [['GET'], ['PATCH', { title: 'mine now' }], ['DELETE']] as const) {
      expect((await call(server, `/api/v1/topic/${topic}`, { method, token: bob.token, body })).status).toBe(
        404,
      );
    }
    expect((await send(bob, topic, 'hi')).status).toBe(404);
    // A token of acme is worth nothing in app, and app's bots are not acme's.
    expect((await call(server, `/api/v1/topic/${topic}`, { token: carol.token })).status).toBe(401);
    expect(
      (await call(server, '/api/v1/topic', { token: carol.token, tenant: 'acme', body: { bot: bots.ELIZA } }))
        .status,
    ).toBe(404);
  });

  it('renames and deletes topics, and refuses inactive or unknown bots', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'ELIZA');
    const renamed = await call(server, `/api/v1/topic/${topic}`, {
      method: 'PATCH',
      token: user.token,
      body: { title: '  Therapy  ' },
    });
    expect(renamed.body).toMatchObject({ _id: topic, title: 'Therapy', bot: { name: 'ELIZA' } });
    expect(
      (
        await call(server, `/api/v1/topic/${topic}`, {
          method: 'PATCH',
          token: user.token,
          body: { title: '   ' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(server, `/api/v1/topic/${topic}`, { method: 'DELETE', token: user.token })).body,
    ).toEqual({ success: true });
    expect((await call(server, '/api/v1/topic', { token: user.token })).body).toEqual([]);
    expect(
      (await call(server, '/api/v1/topic', { token: user.token, body: { bot: bots.Oracle } })).status,
    ).toBe(409);
    expect(
      (await call(server, '/api/v1/topic', { token: user.token, body: { bot: 'no-such-bot' } })).status,
    ).toBe(404);
  });
});
