import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiDouble, startOpenAiDouble, toolSteps } from '../../support/openai-double';

/**
 * The double's function calling read by the official `openai` client: what it sends is OpenAI's wire
 * format, streamed (fragments put together by the client's own helper) and not.
 */
describe('the OpenAI double speaks tools and tool_calls', () => {
  let model: OpenAiDouble;
  let client: OpenAI;
  const tools = [
    {
      type: 'function' as const,
      function: {
        name: 'calculator',
        parameters: { type: 'object', properties: { expression: { type: 'string' } } },
      },
    },
  ];

  beforeAll(async () => {
    model = await startOpenAiDouble();
    client = new OpenAI({ apiKey: 'test', baseURL: model.url, maxRetries: 0 });
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: '2+3' }, id: 'call_a' } },
        { answer: (results) => `It is ${results[0]}.` },
      ]),
    );
  });
  afterAll(() => model.close());

  it('streams a call in fragments that the client assembles, finishing with tool_calls', async () => {
    const stream = client.chat.completions.stream({
      model: 'double-1',
      messages: [{ role: 'user', content: 'Add' }],
      tools,
    });
    const chunks: unknown[] = [];
    stream.on('chunk', (chunk) => chunks.push(chunk));
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message.tool_calls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'calculator', arguments: '{"expression":"2+3"}' } },
    ]);
    // The id and name first, then the arguments over several chunks.
    expect(chunks.length).toBeGreaterThanOrEqual(5);
  });

  it('answers a call without streaming, then takes the tool message back', async () => {
    const first = await client.chat.completions.create({
      model: 'double-1',
      messages: [{ role: 'user', content: 'Add' }],
      tools,
    });
    const message = first.choices[0].message;
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(message).toMatchObject({
      content: null,
      tool_calls: [{ id: 'call_a', function: { name: 'calculator' } }],
    });
    const second = await client.chat.completions.create({
      model: 'double-1',
      messages: [
        { role: 'user', content: 'Add' },
        message,
        { role: 'tool', tool_call_id: 'call_a', content: '2+3 = 5' },
      ],
      tools,
    });
    expect(second.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'It is 2+3 = 5.' },
    });
  });

  it('refuses what OpenAI refuses: a tool message answering no call, a call left unanswered', async () => {
    const refused = (messages: OpenAI.ChatCompletionMessageParam[]) =>
      client.chat.completions.create({ model: 'double-1', messages, tools }).then(
        () => null,
        (error: { status?: number }) => error.status,
      );
    expect(await refused([{ role: 'tool', tool_call_id: 'nope', content: 'x' }])).toBe(400);
    expect(
      await refused([
        { role: 'user', content: 'Add' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calculator', arguments: '{}' } }],
        },
        { role: 'user', content: 'Well?' },
      ]),
    ).toBe(400);
  });
});
