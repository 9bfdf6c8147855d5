import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, type Json, signUp, type TestServer } from '../../support/app';
import { type Nodes, startTwoNodes } from '../../support/nodes';
import { type OpenAiDouble, startOpenAiDouble, toolSteps } from '../../support/openai-double';
import { readEvents, type ServerSentEvent } from '../../support/sse';
import { answerCall, billing, giveTools, newTopic, readTopic, replyText, say, stepEvents } from './support';

/** Two nodes on one PostgreSQL: a call awaiting approval on one node is answered on the other. */
describe('tool calls across nodes', () => {
  let nodes: Nodes;
  let model: OpenAiDouble;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    nodes = await startTwoNodes({ OPENAI_BASE_URL: model.url });
    ({ a, b } = nodes);
  }, 240_000);
  afterAll(async () => {
    await nodes?.stop();
    await model?.close();
  });

  it('approved on the other node, the call runs; a follower there sees its steps', async () => {
    const assistant = (await botIds(a)).Assistant;
    await giveTools(a, 'app', assistant, ['calculator'], ['calculator']);
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: '12*12' } } },
        { answer: (results) => `A gross is ${results[0]}.` },
      ]),
    );
    const user = await signUp(a);
    const topic = await newTopic(a, user, assistant);
    let followed: Promise<ServerSentEvent[]> | undefined;
    let approvedAt = 0;
    let runningAt = 0;
    const events = await say(a, user, topic, 'How many in a gross?', (event) => {
      const step = event.data.step as Json;
      if (event.event === 'step' && step.status === 'running') runningAt = performance.now();
      if (event.event !== 'step' || step.status !== 'awaiting_approval') return;
      followed = (async () => {
        // Node b follows the reply node a writes, then the user answers there.
        const response = await fetch(`${b.url}/api/v1/topic/${topic}/stream`, {
          headers: { authorization: `Bearer ${user.token}` },
        });
        const following = readEvents(response);
        const approved = await answerCall(b, user, topic, step.callId, true);
        approvedAt = performance.now();
        expect(approved).toMatchObject({ status: 200, body: { step: { status: 'running' } } });
        return following;
      })();
    });
    expect(stepEvents(events).map((step) => step.status)).toEqual(['awaiting_approval', 'running', 'done']);
    // Node a learns the answer from the database within about half a second (a second under load).
    expect(runningAt - approvedAt).toBeLessThan(1_500);
    const done = events.at(-1) as Json;
    expect(done).toMatchObject({
      event: 'done',
      data: { steps: [{ status: 'done', result: '12*12 = 144' }] },
    });

    const there = (await followed) as ServerSentEvent[];
    expect(stepEvents(there).at(0)?.status).toBe('awaiting_approval');
    expect(stepEvents(there).at(-1)).toEqual(done.data.steps[0]);
    expect(there.at(-1)).toMatchObject({ event: 'done', data: { steps: done.data.steps } });
    expect(replyText(there)).toBe('A gross is 12*12 = 144.');

    // Both nodes show the stored steps; one charge.
    expect((await readTopic(b, user, topic)).messages[1].steps).toEqual(done.data.steps);
    expect(await billing(b, user)).toMatchObject({ balance: 9.95, reserved: 0 });
  }, 120_000);

  it('keeps the money right under concurrent replies with tools on both nodes', async () => {
    const assistant = (await botIds(a)).Assistant;
    await giveTools(a, 'app', assistant, ['calculator', 'current_time']);
    model.script(
      toolSteps([
        { call: [{ name: 'calculator', arguments: { expression: '1+1' } }, { name: 'current_time' }] },
        { answer: () => 'Done.' },
      ]),
    );
    const user = await signUp(a);
    const topics = await Promise.all(Array.from({ length: 6 }, () => newTopic(a, user, assistant)));
    const results = await Promise.all(
      topics.map((topic, index) => say(index % 2 ? b : a, user, topic, 'Go')),
    );
    expect(results.every((events) => events.at(-1)?.event === 'done')).toBe(true);
    const money = await billing(a, user);
    expect(money.reserved).toBe(0);
    expect(money.balance).toBeCloseTo(10 - 6 * 0.05, 10);
  }, 120_000);
});
