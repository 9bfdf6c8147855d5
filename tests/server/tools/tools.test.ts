import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, type Json, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf, toolSteps } from '../../support/openai-double';
import { admin, loginOwner, stream } from '../admin/support';
import {
  answerCall,
  billing,
  giveTools,
  newKey,
  newTopic,
  readTopic,
  replyText,
  say,
  stepEvents,
  type User,
} from './support';

/** Tools of a model bot, through the chat routes, against the OpenAI double speaking `tool_calls`. */
describe('tools of model bots', () => {
  let model: OpenAiDouble;
  let server: TestServer;
  let bots: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url });
    bots = await botIds(server);
    // The first test server after a change of the database code makes the template database.
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('runs two tools in sequence: the steps stream, are stored with the reply and it is charged once', async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator', 'current_time']);
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: '2+3' } }, chunks: ['Let me work it out.'] },
        { call: { name: 'current_time', arguments: { timezone: 'Europe/Paris' } } },
        { answer: (results) => `The sum: ${results[0]}. The time: ${results[1].split('\n')[0]}` },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    const asked = model.requests.length;
    const events = await say(server, user, topic, 'What is 2+3, and what time is it?');

    // Announced running, then done: the calculator first, then the clock.
    const steps = stepEvents(events);
    expect(steps.map((step) => [step.tool, step.status])).toEqual([
      ['calculator', 'running'],
      ['calculator', 'done'],
      ['current_time', 'running'],
      ['current_time', 'done'],
    ]);
    expect(steps[1]).toMatchObject({ arguments: { expression: '2+3' }, result: '2+3 = 5' });
    expect(steps[3].result).toMatch(/^\d{4}-\d\d-\d\dT.*Z \(UTC\)\n.* in Europe\/Paris$/);
    const done = events.at(-1) as Json;
    expect(done.event).toBe('done');
    expect(done.data.steps).toEqual([steps[1], steps[3]]);
    const text = replyText(events);
    expect(text).toMatch(/^Let me work it out\.\n\nThe sum: 2\+3 = 5\. The time: \d{4}-/);

    // OpenAI's wire format both ways: the tools offered (the bot's, then the member's `remember`), the
    // calls and their results sent back.
    const sent = model.requests.slice(asked);
    expect(sent).toHaveLength(3);
    expect(sent[0].tools?.map((tool) => tool.function.name)).toEqual([
      'calculator',
      'current_time',
      'remember',
    ]);
    expect(sent[0].tools?.[0]).toMatchObject({
      type: 'function',
      function: { parameters: { type: 'object', required: ['expression'] } },
    });
    expect(sent[1].messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: 'Let me work it out.',
        tool_calls: [
          {
            id: expect.any(String),
            type: 'function',
            function: { name: 'calculator', arguments: '{"expression":"2+3"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: sent[1].messages.at(-2)?.tool_calls?.[0].id, content: '2+3 = 5' },
    ]);
    expect(sent[2].messages.filter((message) => message.role === 'tool')).toHaveLength(2);

    // Stored with the message: a reload shows the steps; one charge of the bot's price.
    const stored = await readTopic(server, user, topic);
    const reply = stored.messages[1];
    expect(reply).toMatchObject({ role: 'bot', status: 'complete', text, cost: 0.05 });
    expect(reply.steps).toEqual(done.data.steps);
    expect(reply.steps[0]).toEqual({
      callId: expect.any(String),
      tool: 'calculator',
      arguments: { expression: '2+3' },
      result: '2+3 = 5',
      status: 'done',
      ms: expect.any(Number),
    });
    expect(stored.messages[0].steps).toBeUndefined();
    expect(await billing(server, user)).toMatchObject({ balance: 9.95, reserved: 0 });
  });

  it("the admin's Try it calls the bot's tools as a chat does; an ask-first one is refused; nothing is stored", async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator', 'current_time'], ['current_time']);
    model.script(
      toolSteps([
        {
          call: [
            { name: 'calculator', arguments: { expression: '6*7' } },
            { name: 'current_time', arguments: { timezone: 'UTC' } },
          ],
        },
        { answer: (results) => results.join(' | ') },
      ]),
    );
    const owner = await loginOwner(server, 'app');
    const steps = await server.app.db.query<{ count: string }>('select count(*) from tool_steps');
    const asked = model.requests.length;
    const tried = await stream(server, `/api/v1/admin/bot/${bots.Assistant}/try`, owner.token, 'app', {
      messages: [{ role: 'user', text: 'What is 6*7, and the time?' }],
    });
    expect(model.requests[asked].tools?.map((tool) => tool.function.name)).toEqual([
      'calculator',
      'current_time',
    ]);
    expect(stepEvents(tried.events).map((step) => [step.tool, step.status])).toEqual([
      ['calculator', 'running'],
      ['calculator', 'done'],
      ['current_time', 'denied'],
    ]);
    const done = tried.events.at(-1) as Json;
    expect(done).toMatchObject({ event: 'done', data: { cost: 0 } });
    expect(done.data.steps.map((step: Json) => step.result ?? step.error)).toEqual([
      '6*7 = 42',
      'This tool asks the user first: try it in a chat, where you can allow it.',
    ]);
    expect(replyText(tried.events)).toBe(
      '6*7 = 42 | Error: This tool asks the user first: try it in a chat, where you can allow it.',
    );
    expect((await server.app.db.query<{ count: string }>('select count(*) from tool_steps')).rows).toEqual(
      steps.rows,
    );
  });

  it('gives the model a tool error for a failing call, and offers search_knowledge only with knowledge bases', async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator', 'search_knowledge']);
    model.script(
      toolSteps([
        {
          call: [
            { name: 'calculator', arguments: { expression: '1/0' } },
            { name: 'calculator', arguments: '{"expression": ' },
            { name: 'no_such_tool', arguments: {} },
          ],
        },
        { answer: (results) => results.join(' | ') },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    const asked = model.requests.length;
    const events = await say(server, user, topic, 'Divide by zero');
    expect(model.requests[asked].tools?.map((tool) => tool.function.name)).toEqual([
      'calculator',
      'remember',
    ]);
    const done = events.at(-1) as Json;
    expect(done.event).toBe('done');
    expect(done.data.steps.map((step: Json) => [step.status, step.error])).toEqual([
      ['error', 'Cannot calculate 1/0: Division by zero.'],
      ['error', 'The arguments are not valid JSON.'],
      ['error', 'There is no tool named no_such_tool.'],
    ]);
    expect(done.data.steps[1].arguments).toBe('{"expression": ');
    const text = replyText(events);
    expect(text).toBe(
      'Error: Cannot calculate 1/0: Division by zero. | Error: The arguments are not valid JSON. | Error: There is no tool named no_such_tool.',
    );
  });

  it('refuses fetch_url to private and local addresses, a redirect to one included, as tool errors', async () => {
    let reached = 0;
    const redirector: Server = createServer((_, response) => {
      reached += 1;
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const port = (redirector.address() as AddressInfo).port;
    try {
      await giveTools(server, 'app', bots.Assistant, ['fetch_url']);
      const urls = [
        `http://127.0.0.1:${port}/`,
        'http://10.1.2.3/admin',
        'http://169.254.169.254/latest/meta-data/',
        `http://localhost:${port}/`,
        `http://127.0.0.1:${port}/redirect`,
        'file:///etc/passwd',
      ];
      model.script(
        toolSteps([
          { call: urls.map((url) => ({ name: 'fetch_url', arguments: { url } })) },
          { answer: (results) => results.join('\n') },
        ]),
      );
      const user = await signUp(server);
      const topic = await newTopic(server, user, bots.Assistant);
      const events = await say(server, user, topic, 'Read these pages');
      const done = events.at(-1) as Json;
      expect(done.event).toBe('done');
      const steps = done.data.steps as Json[];
      expect(steps.map((step) => step.status)).toEqual(Array(urls.length).fill('error'));
      for (const step of steps.slice(0, 5))
        expect(step.error).toMatch(
          /is on a private or local network \(.+\), which fetch_url may not reach\.$/,
        );
      expect(steps[2].error).toContain('169.254.169.254');
      expect(steps[3].error).toContain('(localhost)');
      expect(steps[5].error).toBe('Only http and https URLs can be fetched, not file.');
      expect(reached).toBe(0);
      // The reply itself completes: the model read the errors.
      const text = replyText(events);
      expect(text.split('\n').every((line) => line.startsWith('Error: '))).toBe(true);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });

  it('waits for the user on an "ask first" call: approved, it runs', async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator', 'current_time'], ['calculator']);
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: '6*7' } } },
        { answer: (results) => `It is ${results[0]}.` },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    let approval: Promise<Json> | undefined;
    const events = await say(server, user, topic, 'Six times seven?', (event) => {
      if (event.event === 'step' && (event.data.step as Json).status === 'awaiting_approval') {
        const { callId } = event.data.step as Json;
        approval = (async () => {
          // Waiting: the reply is still streaming, nothing has run.
          const waiting = await readTopic(server, user, topic);
          expect(waiting.messages[1]).toMatchObject({
            status: 'streaming',
            steps: [{ status: 'awaiting_approval' }],
          });
          return answerCall(server, user, topic, callId, true);
        })();
      }
    });
    const approved = await approval;
    expect(approved?.status).toBe(200);
    expect(approved?.body.step).toMatchObject({
      tool: 'calculator',
      status: 'running',
      arguments: { expression: '6*7' },
    });
    expect(stepEvents(events).map((step) => step.status)).toEqual(['awaiting_approval', 'running', 'done']);
    const done = events.at(-1) as Json;
    expect(done.data.steps).toEqual([expect.objectContaining({ status: 'done', result: '6*7 = 42' })]);
    expect(replyText(events)).toBe('It is 6*7 = 42.');
    // Answered once: a second answer is refused; someone else's topic or an unknown call is a 404.
    const { callId } = done.data.steps[0];
    expect(await answerCall(server, user, topic, callId, false)).toMatchObject({
      status: 409,
      body: { code: 'NOT_AWAITING' },
    });
    const stranger = await signUp(server);
    expect((await answerCall(server, stranger, topic, callId, true)).status).toBe(404);
    expect((await answerCall(server, user, topic, 'no-such-call', true)).status).toBe(404);
    const elsewhere = await newTopic(server, user, bots.Assistant);
    expect((await answerCall(server, user, elsewhere, callId, true)).status).toBe(404);
    expect(await billing(server, user)).toMatchObject({ balance: 9.95, reserved: 0 });
  });

  it('denied, the model is told and answers without it; still charged once', async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator'], ['calculator']);
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: '6*7' } } },
        { answer: (results) => `Without the calculator: ${results[0]}` },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    let denial: Promise<Json> | undefined;
    const events = await say(server, user, topic, 'Six times seven?', (event) => {
      const step = event.data.step as Json;
      if (event.event === 'step' && step.status === 'awaiting_approval')
        denial = answerCall(server, user, topic, step.callId, false);
    });
    expect((await denial)?.body.step).toMatchObject({ status: 'denied', error: 'Denied by the user.' });
    expect(stepEvents(events).map((step) => step.status)).toEqual(['awaiting_approval', 'denied']);
    const done = events.at(-1) as Json;
    expect(done.event).toBe('done');
    expect(done.data.steps).toEqual([
      expect.objectContaining({ tool: 'calculator', status: 'denied', error: 'Denied by the user.', ms: 0 }),
    ]);
    expect(done.data.steps[0].result).toBeUndefined();
    const toolMessage = model.requests.at(-1)?.messages.at(-1);
    expect(toolMessage?.role).toBe('tool');
    expect(textOf(toolMessage?.content)).toContain('The user did not allow this call');
    expect(await billing(server, user)).toMatchObject({ balance: 9.95, reserved: 0 });
  });

  it('a reply stopped while its call waits is kept with its step and not charged', async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator'], ['calculator']);
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: '1+1' } } },
        { answer: () => 'never' },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    let stopped: Promise<Json> | undefined;
    const events = await say(server, user, topic, 'One plus one?', (event) => {
      if (event.event === 'step' && (event.data.step as Json).status === 'awaiting_approval')
        stopped = call(server, `/api/v1/topic/${topic}/stop`, { token: user.token, body: {} });
    });
    expect((await stopped)?.body).toMatchObject({ stopped: true });
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'STOPPED' } });
    const stored = await readTopic(server, user, topic);
    expect(stored.messages[1]).toMatchObject({
      status: 'stopped',
      text: '',
      steps: [{ tool: 'calculator', status: 'error', error: 'Stopped before it finished.' }],
    });
    expect(stored.messages[1].cost).toBeUndefined();
    expect(await billing(server, user)).toMatchObject({ balance: 10, reserved: 0 });
    const { callId } = stored.messages[1].steps[0];
    expect((await answerCall(server, user, topic, callId, true)).status).toBe(409);
  });

  it('asks the model to answer without tools after 8 calls', async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator']);
    // The script never stops calling: past the limit the request says tool_choice none, and the
    // double's answer then is text.
    const calling = toolSteps(
      Array.from({ length: 9 }, () => ({ call: { name: 'calculator', arguments: { expression: '1+1' } } })),
    );
    model.script((request) =>
      request.tool_choice === 'none' ? { chunks: ['Enough calculating.'] } : calling(request),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    const asked = model.requests.length;
    const events = await say(server, user, topic, 'Keep adding');
    const done = events.at(-1) as Json;
    expect(done.event).toBe('done');
    expect(done.data.steps).toHaveLength(8);
    const sent = model.requests.slice(asked);
    expect(sent).toHaveLength(9);
    expect(sent.slice(0, 8).every((request) => request.tool_choice === undefined)).toBe(true);
    expect(sent[8].tool_choice).toBe('none');
    expect(replyText(events)).toBe('Enough calculating.');
  });

  it('validates a bot’s tools: unknown names are a 400 naming them, built-in bots have none', async () => {
    const owner = await loginOwner(server, 'app');
    const patch = (id: string, body: Json) => admin(server, owner, `/bot/${id}`, { method: 'PATCH', body });
    expect((await patch(bots.Assistant, { tools: ['calculator', 'launch_rockets'] })).body).toEqual({
      error: 'There is no tool named launch_rockets.',
      code: 'INVALID_INPUT',
      field: 'tools',
    });
    expect(await patch(bots.Assistant, { tools: ['calculator'], askFirst: ['fetch_url'] })).toMatchObject({
      status: 400,
      body: { field: 'askFirst', error: 'fetch_url asks first but is not one of the bot’s tools.' },
    });
    expect(await patch(bots.ELIZA, { tools: ['calculator'] })).toMatchObject({
      status: 400,
      body: { field: 'tools', error: 'A built-in bot cannot call tools.' },
    });
    // Removing a tool drops it from those that ask first; the list reads back as set.
    await giveTools(server, 'app', bots.Assistant, ['calculator', 'fetch_url'], ['fetch_url']);
    const changed = await patch(bots.Assistant, { tools: ['calculator'] });
    expect(changed.body).toMatchObject({ tools: ['calculator'], askFirst: [] });
    const listed = await admin(server, owner, '/bot');
    expect(listed.body.find((bot: Json) => bot._id === bots.Assistant)).toMatchObject({
      tools: ['calculator'],
      askFirst: [],
    });
    expect(listed.body.find((bot: Json) => bot._id === bots.ELIZA)).toMatchObject({
      tools: [],
      askFirst: [],
    });
  });

  it('applies the bot’s tools through /v1/chat/completions; an "ask first" tool is denied there', async () => {
    await giveTools(server, 'app', bots.Assistant, ['calculator', 'current_time'], ['current_time']);
    model.script(
      toolSteps([
        { call: [{ name: 'calculator', arguments: { expression: '2^10' } }, { name: 'current_time' }] },
        { answer: (results) => results.join(' / ') },
      ]),
    );
    const user = await signUp(server);
    const key = await newKey(server, user, 'tools');
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` },
      body: JSON.stringify({
        model: bots.Assistant,
        messages: [{ role: 'user', content: 'Powers and time' }],
      }),
    });
    expect(response.status).toBe(200);
    const completion = (await response.json()) as Json;
    expect(completion.choices[0].message.content).toBe(
      '2^10 = 1024 / Error: This tool needs approval in the app: it cannot be used through the API.',
    );
    expect(await billing(server, user)).toMatchObject({ balance: 9.95, reserved: 0 });
  });

  it('counts tool calls per tool in the usage report (JSON and CSV), denied ones left out', async () => {
    const helpdesk = (await botIds(server, 'acme'))['Acme Helpdesk'];
    await giveTools(server, 'acme', helpdesk, ['calculator', 'current_time'], ['current_time']);
    model.script(
      toolSteps([
        { call: [{ name: 'calculator', arguments: { expression: '1+2' } }, { name: 'current_time' }] },
        { call: { name: 'calculator', arguments: { expression: '3+4' } } },
        { answer: () => 'Done.' },
      ]),
    );
    const user: User = await signUp(server, 'acme');
    const topic = await newTopic(server, user, helpdesk);
    const events = await say(server, user, topic, 'Sums', (event) => {
      const step = event.data.step as Json;
      if (event.event === 'step' && step.status === 'awaiting_approval')
        void answerCall(server, user, topic, step.callId, false);
    });
    expect((events.at(-1) as Json).data.steps.map((step: Json) => step.status)).toEqual([
      'done',
      'denied',
      'done',
    ]);

    const owner = await loginOwner(server, 'acme');
    const usage = await admin(server, owner, '/usage?days=7');
    expect(usage.body.perTool).toEqual([{ tool: 'calculator', calls: 2 }]);
    const csv = await fetch(`${server.url}/api/v1/admin/usage?days=7&format=csv`, {
      headers: { authorization: `Bearer ${owner.token}`, organization: 'acme' },
    });
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('section,date,id,name,messages,replies,spend,calls');
    expect(lines).toContain('tool,,,calculator,,,,2');
    // Each organization counts its own.
    const other = await admin(server, await loginOwner(server, 'app'), '/usage?days=7');
    expect(other.body.perTool.find((tool: Json) => tool.tool === 'calculator').calls).toBeGreaterThan(2);
  });

  it('a completion whose model fails answers 502, one its client leaves mid-stream stops: neither is charged', async () => {
    model.script((request) =>
      textOf(request.messages.at(-1)?.content) === 'Fail'
        ? { chunks: [], status: 500 }
        : { chunks: ['One ', 'two ', 'three ', 'four'], delayMs: 400 },
    );
    const user = await signUp(server);
    const key = await newKey(server, user, 'ends');
    const before = await billing(server, user);
    const complete = (content: string, stream: boolean, signal?: AbortSignal) =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` },
        body: JSON.stringify({ model: bots.Assistant, stream, messages: [{ role: 'user', content }] }),
        signal,
      });
    const failed = await complete('Fail', false);
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as Json).error).toMatchObject({ type: 'server_error' });
    expect(await billing(server, user)).toMatchObject({ balance: before.balance, reserved: 0 });

    const leaving = new AbortController();
    const streamed = await complete('Count', true, leaving.signal);
    const reader = (streamed.body as ReadableStream<Uint8Array>).getReader();
    let read = '';
    while (!read.includes('"content":"One "')) read += new TextDecoder().decode((await reader.read()).value);
    leaving.abort();
    // Stopped at the next token at the latest, its reservation given back.
    await expect
      .poll(() => billing(server, user), { timeout: 5000 })
      .toMatchObject({ balance: before.balance, reserved: 0 });
    expect((await billing(server, user)).transactions).toHaveLength(before.transactions.length);
  });
});
