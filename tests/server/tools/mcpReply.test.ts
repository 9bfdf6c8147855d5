import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, type Json, signUp, startApp, type TestServer } from '../../support/app';
import {
  type EverythingServer,
  type HangingServer,
  startEverything,
  startHangingServer,
} from '../../support/mcpServers';
import { type OpenAiDouble, startOpenAiDouble, textOf, toolSteps } from '../../support/openai-double';
import { type Actor, admin, loginOwner } from '../admin/support';
import {
  billing,
  giveTools,
  newKey,
  newTopic,
  openAiClient,
  readTopic,
  replyText,
  say,
  stepEvents,
} from './support';

/**
 * An MCP server's tool in a real reply: the reference server (`@modelcontextprotocol/server-everything`)
 * added by an admin, its tool enabled on a model bot through the admin bot route, and the OpenAI double
 * calling it; then a server that hangs mid-reply.
 */
describe('MCP tools in replies', () => {
  let model: OpenAiDouble;
  let everything: EverythingServer;
  let hanging: HangingServer;
  let server: TestServer;
  let owner: Actor;
  let bots: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    everything = await startEverything();
    hanging = await startHangingServer(everything.url);
    hanging.hang = false;
    // The MCP servers listen on 127.0.0.1, as providers' tests reach the model double.
    server = await startApp({ OPENAI_BASE_URL: model.url, ALLOW_PRIVATE_PROVIDER_URLS: 'true' });
    owner = await loginOwner(server, 'app');
    bots = await botIds(server);
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    await hanging?.close();
    everything?.stop();
    await model?.close();
  });

  it('an admin adds the server and enables its echo on a bot; the model calls it and answers with its text', async () => {
    const added = await admin(server, owner, '/mcp', {
      body: { name: owner.encrypt('Everything'), url: everything.url },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.tools.map((tool: Json) => tool.name)).toContain('everything__echo');
    const tools = await admin(server, owner, '/tool');
    expect(tools.body.find((tool: Json) => tool.name === 'everything__echo')).toEqual({
      name: 'everything__echo',
      description: 'Echoes back the input string',
      source: 'mcp',
      server: { _id: added.body._id, name: 'Everything' },
    });
    await giveTools(server, 'app', bots.Assistant, ['everything__echo']);

    model.script(
      toolSteps([
        { call: { name: 'everything__echo', arguments: { message: 'Hello through MCP' } } },
        { answer: (results) => `The server said: ${results[0]}` },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    const asked = model.requests.length;
    const events = await say(server, user, topic, 'Ask the echo tool to say hello');

    expect(stepEvents(events).map((step) => [step.tool, step.status])).toEqual([
      ['everything__echo', 'running'],
      ['everything__echo', 'done'],
    ]);
    expect(events.at(-1)?.event).toBe('done');
    expect(replyText(events)).toBe('The server said: Echo: Hello through MCP');

    // The model was offered the tool with the server's own schema (and the member's `remember`), and
    // read back what the server answered.
    const sent = model.requests.slice(asked);
    expect(sent).toHaveLength(2);
    expect(sent[0].tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'everything__echo',
          description: 'Echoes back the input string',
          parameters: expect.objectContaining({
            type: 'object',
            properties: { message: expect.objectContaining({ type: 'string' }) },
          }),
        },
      },
      expect.objectContaining({ function: expect.objectContaining({ name: 'remember' }) }),
    ]);
    const toolMessage = sent[1].messages.at(-1);
    expect(toolMessage?.role).toBe('tool');
    expect(textOf(toolMessage?.content)).toBe('Echo: Hello through MCP');

    // Stored with the reply: a reload shows the step; the bot's price charged once.
    const stored = await readTopic(server, user, topic);
    expect(stored.messages[1]).toMatchObject({
      role: 'bot',
      status: 'complete',
      text: 'The server said: Echo: Hello through MCP',
      cost: 0.05,
    });
    expect(stored.messages[1].steps).toEqual([
      {
        callId: expect.any(String),
        tool: 'everything__echo',
        arguments: { message: 'Hello through MCP' },
        result: 'Echo: Hello through MCP',
        status: 'done',
        ms: expect.any(Number),
      },
    ]);
    const account = await billing(server, user);
    expect(account).toMatchObject({ balance: 9.95, reserved: 0 });
    expect(account.transactions.filter((transaction) => transaction.amount < 0)).toHaveLength(1);
  });

  it('calls the same tool for a completion of the official openai client, streamed and not', async () => {
    await giveTools(server, 'app', bots.Assistant, ['everything__echo']);
    model.script(
      toolSteps([
        { call: { name: 'everything__echo', arguments: { message: 'From a script' } } },
        { answer: (results) => `Heard: ${results[0]}` },
      ]),
    );
    const user = await signUp(server);
    const openai = openAiClient(server, (await newKey(server, user)).key);
    const completion = await openai.chat.completions.create({
      model: bots.Assistant,
      messages: [{ role: 'user', content: 'Echo something' }],
    });
    expect(completion.choices[0].message.content).toBe('Heard: Echo: From a script');
    expect(completion.choices[0].finish_reason).toBe('stop');

    const stream = await openai.chat.completions.create({
      model: bots.Assistant,
      messages: [{ role: 'user', content: 'Echo something, streamed' }],
      stream: true,
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe('Heard: Echo: From a script');
    // Two completions, each charged the bot's price once.
    const account = await billing(server, user);
    expect(account).toMatchObject({ balance: 9.9, reserved: 0 });
    expect(account.transactions.filter((transaction) => transaction.amount < 0)).toHaveLength(2);
  });

  it('a server that hangs during a reply: the step ends as an error within 20 s and the reply finishes', async () => {
    const added = await admin(server, owner, '/mcp', {
      body: { name: owner.encrypt('Stalling'), url: hanging.url },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await giveTools(server, 'app', bots.Assistant, ['stalling__echo']);
    // It listed its tools, and stops answering before the reply calls one.
    hanging.hang = true;
    model.script(
      toolSteps([
        { call: { name: 'stalling__echo', arguments: { message: 'anyone there?' } } },
        { answer: (results) => `No luck: ${results[0]}` },
      ]),
    );
    const user = await signUp(server);
    const topic = await newTopic(server, user, bots.Assistant);
    const started = Date.now();
    const events = await say(server, user, topic, 'Try the stalling server');
    const took = Date.now() - started;

    const error = 'The tool server Stalling did not answer.';
    expect(stepEvents(events).map((step) => [step.tool, step.status])).toEqual([
      ['stalling__echo', 'running'],
      ['stalling__echo', 'error'],
    ]);
    expect(events.at(-1)?.event).toBe('done');
    const step = (events.at(-1) as Json).data.steps[0];
    expect(step).toMatchObject({ status: 'error', error, arguments: { message: 'anyone there?' } });
    expect(step.result).toBeUndefined();
    expect(step.ms).toBeGreaterThanOrEqual(19_000);
    expect(step.ms).toBeLessThan(24_000);
    expect(took).toBeLessThan(30_000);
    expect(textOf(model.requests.at(-1)?.messages.at(-1)?.content)).toBe(`Error: ${error}`);
    expect(replyText(events)).toBe(`No luck: Error: ${error}`);

    const stored = await readTopic(server, user, topic);
    expect(stored.messages[1]).toMatchObject({
      status: 'complete',
      text: `No luck: Error: ${error}`,
      steps: [{ tool: 'stalling__echo', status: 'error', error }],
    });
    expect(await billing(server, user)).toMatchObject({ balance: 9.95, reserved: 0 });
    // The admin sees why.
    const listed = (await admin(server, owner, '/mcp')).body.find((item: Json) => item.name === 'Stalling');
    expect(listed.error).toContain('did not answer within 20 seconds');
  }, 60_000);
});
