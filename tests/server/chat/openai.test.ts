import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type ReplyRequest } from '../../../server/providers/types';
import { openaiProvider } from '../../../server/replies/engines/openai';
import { type OpenAiDouble, startOpenAiDouble } from '../../support/openai-double';
import { freePort } from '../../support/server';

/** The OpenAI-compatible provider against a double speaking the real streaming wire format over HTTP. */
describe('openai provider', () => {
  let model: OpenAiDouble;
  let provider: ReturnType<typeof openaiProvider>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    provider = openaiProvider({
      baseUrl: model.url,
      apiKey: 'env-key',
      model: 'env-model',
      idleTimeoutMs: 300,
    });
  });
  afterAll(() => model.close());

  const request = (overrides: Partial<ReplyRequest> = {}): ReplyRequest => ({
    history: [],
    text: 'hello',
    config: {},
    tenant: 'app',
    signal: new AbortController().signal,
    waive: () => {},
    ...overrides,
  });
  /** Every piece the provider yields, and the error it ends with, if any. */
  const run = async (using = provider, overrides: Partial<ReplyRequest> = {}) => {
    const pieces: string[] = [];
    try {
      for await (const piece of using(request(overrides))) pieces.push(piece);
      return { pieces, error: null };
    } catch (error) {
      return { pieces, error: error as ProviderError };
    }
  };

  it('streams the chunks in order, sending model, system prompt, history and the key', async () => {
    model.script(() => ({ chunks: ['Hel', 'lo', ' there'] }));
    const result = await run(provider, {
      history: [
        { role: 'user', text: 'first' },
        { role: 'bot', text: 'answer' },
      ],
      text: 'second',
      config: { systemPrompt: 'Be brief.', model: 'bot-model' },
    });
    expect(result).toEqual({ pieces: ['Hel', 'lo', ' there'], error: null });
    expect(model.requests.at(-1)).toEqual({
      model: 'bot-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'answer' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(model.authorizations.at(-1)).toBe('Bearer env-key');
  });

  it('sends the reply’s parameters and reports the usage the server streams, or an estimate', async () => {
    const reports: Parameters<NonNullable<ReplyRequest['usage']>>[0][] = [];
    model.script(() => ({
      chunks: ['Short', ' answer'],
      usage: { prompt_tokens: 321, completion_tokens: 7 },
    }));
    const result = await run(provider, {
      config: { temperature: 0.2 },
      parameters: { temperature: 1.5, maxTokens: 64, stop: ['END'] },
      usage: (usage) => reports.push(usage),
    });
    expect(result.pieces.join('')).toBe('Short answer');
    // The conversation's temperature wins over the bot's.
    expect(model.requests.at(-1)).toMatchObject({ temperature: 1.5, max_tokens: 64, stop: ['END'] });
    expect(reports).toEqual([{ promptTokens: 321, completionTokens: 7, estimated: false }]);
    // A server that reports none: about four characters a token of what was sent and written.
    model.script(() => ({ chunks: ['abcdefgh'], usage: null }));
    await run(provider, { text: 'x'.repeat(40), usage: (usage) => reports.push(usage) });
    expect(reports.at(-1)).toEqual({ promptTokens: 10, completionTokens: 2, estimated: true });
    expect(model.requests.at(-1)).not.toHaveProperty('max_tokens');
    expect(model.requests.at(-1)).not.toHaveProperty('temperature');
  });

  it('finishes at [DONE] even when the server keeps the connection open', async () => {
    model.script(() => ({ chunks: ['complete'], end: 'linger' }));
    expect(await run()).toEqual({ pieces: ['complete'], error: null });
  });

  it('turns an HTTP error into a clear error with the server’s message', async () => {
    model.script(() => ({ chunks: ['Incorrect API key provided.'], status: 401 }));
    const { error } = await run();
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'PROVIDER_ERROR',
      message: 'The model server refused the request (HTTP 401): Incorrect API key provided.',
    });
  });

  it('fails clearly on a chunk that is not JSON, after what came before it', async () => {
    model.script(() => ({ chunks: ['Fine ', 'so far'], raw: 'data: {"choices":[{"delta":\n\n' }));
    const result = await run();
    expect(result.pieces).toEqual(['Fine ', 'so far']);
    expect(result.error).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE' });
  });

  it('reports an error the model sends inside the stream', async () => {
    model.script(() => ({
      chunks: ['Partial'],
      raw: `data: ${JSON.stringify({ error: { message: 'Model overloaded', type: 'server_error' } })}\n\n`,
      end: 'drop',
    }));
    const result = await run();
    expect(result.pieces).toEqual(['Partial']);
    expect(result.error).toMatchObject({
      code: 'PROVIDER_ERROR',
      message: 'The model failed: Model overloaded',
    });
  });

  it('times out a stalled stream and a connection cut without [DONE]', async () => {
    model.script(() => ({ chunks: ['Stalled '], end: 'stall' }));
    const stalled = await run();
    expect(stalled.pieces).toEqual(['Stalled ']);
    expect(stalled.error).toMatchObject({ code: 'PROVIDER_TIMEOUT' });

    model.script(() => ({ chunks: ['Cut '], end: 'drop' }));
    expect((await run()).error).toMatchObject({ code: 'PROVIDER_INTERRUPTED' });
  });

  it('says when the model server cannot be reached or is not configured', async () => {
    const nowhere = openaiProvider({
      baseUrl: `http://127.0.0.1:${await freePort()}/v1`,
      apiKey: undefined,
      model: 'm',
      idleTimeoutMs: 2000,
    });
    expect((await run(nowhere)).error).toMatchObject({ code: 'PROVIDER_UNREACHABLE' });
    const unset = openaiProvider({ baseUrl: undefined, apiKey: undefined, model: 'm', idleTimeoutMs: 300 });
    expect((await run(unset)).error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
  });

  it('stops reading and closes the connection when the reply is stopped', async () => {
    model.script(() => ({ chunks: Array.from({ length: 100 }, (_, index) => `w${index} `), delayMs: 5 }));
    const abort = new AbortController();
    const pieces: string[] = [];
    for await (const piece of provider(request({ signal: abort.signal }))) {
      pieces.push(piece);
      if (pieces.length === 3) abort.abort();
    }
    expect(pieces.length).toBeLessThan(10);
    await expect.poll(() => model.abandoned()).toBe(1);
  });

  it('sends the environment’s key only to the environment’s server', async () => {
    model.script(() => ({ chunks: ['ok'] }));
    // The same double under another name: to the provider, another host.
    const elsewhere = model.url.replace('127.0.0.1', 'localhost');
    expect((await run(provider, { config: { baseUrl: elsewhere } })).error).toBeNull();
    expect(model.authorizations.at(-1)).toBeUndefined();
    await run(provider, { config: { baseUrl: elsewhere, apiKey: 'bot-key' } });
    expect(model.authorizations.at(-1)).toBe('Bearer bot-key');
  });
});
