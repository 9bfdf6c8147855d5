import { createParser } from 'eventsource-parser';
import type { Config } from '../../config';
import { textWithAttachments, textWithPassages } from '../../files/prompt';
import {
  type Attachment,
  type Passage,
  type Provider,
  ProviderError,
  type ProviderResolver,
  type Send,
  type TitleWriter,
  type ToolCall,
} from '../../providers/types';
import { RefusedAddress } from '../../security/outbound';
import type { TranslationProvider } from '../../translation/translator';
import { estimateTokens } from '../pipeline';

type Settings = Config['openai'];

class IdleTimeout extends Error {}

const endpoint = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
const headers = (apiKey: string | undefined) => ({
  'content-type': 'application/json',
  accept: 'text/event-stream',
  ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
});

async function refusal(response: Response): Promise<ProviderError> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  const reason = body?.error?.message ? `: ${body.error.message}` : '';
  return new ProviderError(
    `The model server refused the request (HTTP ${response.status})${reason}`,
    'PROVIDER_ERROR',
  );
}

const setting = (config: Record<string, unknown>, name: string) =>
  typeof config[name] === 'string' && config[name] ? (config[name] as string) : undefined;

/**
 * A user's turn in OpenAI's wire format: its text with the documents it carried (and the passages
 * found for it), and its images as `image_url` content parts (data URLs) after it, for a bot that
 * sees images.
 */
function userContent(text: string, attachments: Attachment[] = [], passages: Passage[] = []) {
  const body = textWithPassages(textWithAttachments(text, attachments), passages);
  const images = attachments.flatMap((file) => (file.dataUrl ? [file.dataUrl] : []));
  if (!images.length) return body;
  return [{ type: 'text', text: body }, ...images.map((url) => ({ type: 'image_url', image_url: { url } }))];
}

/**
 * Where a bot's requests go: its organization's provider, its own base URL, or the server's. Voice
 * finds its provider the same way (`{ provider }` of its settings).
 */
export async function target(
  settings: Settings,
  resolve: ProviderResolver | undefined,
  tenant: string,
  config: Record<string, unknown>,
): Promise<{ baseUrl: string; apiKey: string | undefined; send: Send }> {
  const providerId = setting(config, 'provider');
  if (providerId) {
    const found = resolve ? await resolve(tenant, providerId) : null;
    if (!found) throw new ProviderError('This bot’s provider no longer exists.', 'PROVIDER_NOT_CONFIGURED');
    return found;
  }
  const baseUrl = setting(config, 'baseUrl') ?? settings.baseUrl;
  if (!baseUrl)
    throw new ProviderError('No model server is configured for this bot.', 'PROVIDER_NOT_CONFIGURED');
  // The environment's key belongs to the environment's server: never send it to another host.
  const apiKey = setting(config, 'apiKey') ?? (baseUrl === settings.baseUrl ? settings.apiKey : undefined);
  return { baseUrl, apiKey, send: fetch };
}

interface Round {
  /** The text this round streamed. */
  text: string;
  /** The function calls the model asked for, put together from their fragments. */
  calls: ToolCall[];
  /** The tokens the server reported for the round (`usage`, asked with `stream_options`), if any. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Why the model stopped: `stop`, `length` (its maximum reached), `tool_calls`… */
  finish?: string;
}

/** A reported `usage` when it is one: both counts whole and not negative. */
function usageOf(value: unknown): Round['usage'] {
  const usage = value as { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
  const count = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (!usage || !count(usage.prompt_tokens) || !count(usage.completion_tokens)) return undefined;
  return {
    prompt_tokens: usage.prompt_tokens as number,
    completion_tokens: usage.completion_tokens as number,
  };
}

/** The text a request's messages carry (images and formatting left out), for an estimate of its tokens. */
const messagesText = (messages: Record<string, unknown>[]) =>
  messages
    .map((message) => {
      const { content, tool_calls: calls } = message as { content?: unknown; tool_calls?: unknown };
      const text = Array.isArray(content)
        ? content.map((part) => (part as { text?: unknown }).text ?? '').join('\n')
        : typeof content === 'string'
          ? content
          : '';
      return calls ? `${text}${JSON.stringify(calls)}` : text;
    })
    .join('\n');

/** A fragment of a streamed tool call, as OpenAI sends it in `delta.tool_calls`. */
interface CallFragment {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/**
 * One request to the model server, streamed: yields the text as it comes and returns the tool calls
 * the model asked for. One idle timeout covers waiting for the answer's headers and every pause
 * between chunks; any failure is a ProviderError.
 */
async function* streamRound(
  send: Send,
  baseUrl: string,
  apiKey: string | undefined,
  body: Record<string, unknown>,
  signal: AbortSignal,
  idleTimeoutMs: number,
): AsyncGenerator<string, Round> {
  // One controller for both the user's stop and the idle timeout; the reason tells them apart.
  const controller = new AbortController();
  const stop = () => controller.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new IdleTimeout()), idleTimeoutMs);
  };
  const failure = (error: unknown) => {
    if (error instanceof ProviderError) return error;
    if (error instanceof RefusedAddress || (error as { cause?: unknown }).cause instanceof RefusedAddress) {
      return new ProviderError(
        'The model server’s address is on a private network, which is not allowed.',
        'PROVIDER_URL_REFUSED',
      );
    }
    if (controller.signal.reason instanceof IdleTimeout) {
      return new ProviderError('The model server stopped answering. Please try again.', 'PROVIDER_TIMEOUT');
    }
    return new ProviderError('The model server cannot be reached.', 'PROVIDER_UNREACHABLE');
  };

  const round: Round = { text: '', calls: [] };
  // Tool calls by their index in the stream: id and name come first, the arguments in pieces.
  const calls = new Map<number, ToolCall>();
  try {
    arm();
    const response = await send(endpoint(baseUrl), {
      method: 'POST',
      headers: headers(apiKey),
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw await refusal(response);

    const pieces: string[] = [];
    // A finish reason completes the reply; [DONE] also ends the stream.
    let finished = false as boolean;
    let ended = false as boolean;
    let broken: ProviderError | null = null;
    const parser = createParser({
      onEvent: ({ data }) => {
        if (data === '[DONE]') {
          finished = true;
          ended = true;
          return;
        }
        try {
          const chunk = JSON.parse(data) as {
            error?: { message?: string };
            usage?: unknown;
            choices?: {
              delta?: { content?: string | null; tool_calls?: CallFragment[] | null };
              finish_reason?: string | null;
            }[];
          };
          if (chunk.error)
            broken = new ProviderError(
              `The model failed: ${chunk.error.message ?? 'unknown error'}`,
              'PROVIDER_ERROR',
            );
          // With `include_usage`, the last chunk (no choices) carries the request's usage.
          round.usage = usageOf(chunk.usage) ?? round.usage;
          const choice = chunk.choices?.[0];
          const content = choice?.delta?.content;
          if (typeof content === 'string' && content) pieces.push(content);
          for (const fragment of choice?.delta?.tool_calls ?? []) {
            const index = typeof fragment.index === 'number' ? fragment.index : calls.size;
            const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
            calls.set(index, call);
            if (fragment.id) call.id = fragment.id;
            const name = fragment.function?.name;
            // OpenAI sends the name whole in the first fragment; some servers repeat it.
            if (name && call.name !== name) call.name += name;
            if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
          }
          if (choice?.finish_reason) {
            finished = true;
            round.finish = choice.finish_reason;
          }
        } catch {
          broken = new ProviderError(
            'The model server sent a reply that cannot be read.',
            'PROVIDER_BAD_RESPONSE',
          );
        }
      },
    });
    const decoder = new TextDecoder();
    for await (const bytes of response.body) {
      arm();
      parser.feed(decoder.decode(bytes, { stream: true }));
      while (pieces.length) {
        const piece = pieces.shift() as string;
        round.text += piece;
        yield piece;
      }
      if (broken) throw broken;
      // Some servers keep the connection open after [DONE]: the reply is complete, stop reading.
      if (ended) break;
    }
    if (!finished)
      throw new ProviderError('The model server stopped in the middle of the reply.', 'PROVIDER_INTERRUPTED');
    round.calls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }))
      .filter((call) => call.name);
    return round;
  } catch (error) {
    if (signal.aborted) return round;
    throw failure(error);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/** What a model is asked after its own reply that ended early, when the user asks it to go on. */
export const continueInstruction =
  'Your last reply was cut off. Continue it exactly where it stopped: write only what comes next, without repeating anything (start with a space or a line break if one belongs there).';

/**
 * Any OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, llama.cpp…), streamed.
 * The bot's config may name its organization's `provider` (resolved, key unsealed, at call time), or
 * carry its own `baseUrl` and `apiKey`; and its `model`, `systemPrompt` and `temperature`. The
 * reply's `instructions` follow the bot's prompt in its system message; its `parameters` (a
 * conversation's, an API call's) are sent as `temperature`, `max_tokens` and `stop`. Each request
 * asks for its `usage` (`stream_options.include_usage`) and reports it, or an estimate when the
 * server sends none.
 * With tools, the model may call them (OpenAI's function calling): each call is run, its result
 * sent back as a `tool` message and the model asked again, up to the tools' `maxSteps` calls; then
 * it is asked to answer without tools (`tool_choice: 'none'`). A reply continued is sent as the
 * model's last turn, followed by the request to go on with it (`continueInstruction`).
 */
export function openaiProvider(settings: Settings, resolve?: ProviderResolver): Provider {
  return async function* ({
    history,
    text,
    attachments,
    knowledge,
    instructions = [],
    config,
    signal,
    tenant,
    tools,
    continuing,
    parameters = {},
    usage: report,
    cut,
  }) {
    if (signal.aborted) return;
    const { baseUrl, apiKey, send } = await target(settings, resolve, tenant, config);
    const chosen = parameters.temperature ?? config.temperature;
    const sampling = {
      ...(typeof chosen === 'number' ? { temperature: chosen } : {}),
      ...(parameters.maxTokens === undefined ? {} : { max_tokens: parameters.maxTokens }),
      ...(parameters.stop?.length ? { stop: parameters.stop } : {}),
      stream_options: { include_usage: true },
    };
    // One system message: the bot's own prompt, then the sections of the reply's context (some
    // servers' chat templates take only one, and only first).
    const prompt = [typeof config.systemPrompt === 'string' ? config.systemPrompt : '', ...instructions]
      .filter(Boolean)
      .join('\n\n');
    const system = prompt ? [{ role: 'system', content: prompt }] : [];
    const messages: Record<string, unknown>[] = [
      ...system,
      ...history.map((turn) =>
        turn.role === 'user'
          ? { role: 'user', content: userContent(turn.text, turn.attachments) }
          : { role: 'assistant', content: turn.text },
      ),
      { role: 'user', content: userContent(text, attachments, knowledge?.passages) },
      // A reply continued: what it said so far is its turn, and the model is asked to go on with it.
      ...(continuing === undefined
        ? []
        : [
            { role: 'assistant', content: continuing },
            { role: 'user', content: continueInstruction },
          ]),
    ];
    const model = setting(config, 'model') ?? settings.model;
    let offering = tools;
    let calls = 0;
    let written = '';
    try {
      for (;;) {
        const limited = offering && calls >= offering.maxSteps;
        const offered = offering
          ? { tools: offering.definitions, ...(limited ? { tool_choice: 'none' } : {}) }
          : {};
        const rounds = streamRound(
          send,
          baseUrl,
          apiKey,
          { model, messages, stream: true, ...sampling, ...offered },
          signal,
          settings.idleTimeoutMs,
        );
        let first = true;
        let next: IteratorResult<string, Round>;
        try {
          next = await rounds.next();
        } catch (error) {
          // Many servers refuse `tools` for a model without function calling (Ollama, vLLM or
          // llama.cpp as started): tools the reply can do without are then left out, and it goes on.
          if (!(offering?.optional && !calls && !written && error instanceof ProviderError)) throw error;
          if (error.code !== 'PROVIDER_ERROR') throw error;
          offering = undefined;
          continue;
        }
        while (!next.done) {
          // The text after a tool call starts a paragraph of its own.
          if (first && written && !written.endsWith('\n')) yield '\n\n';
          first = false;
          written += next.value;
          yield next.value;
          next = await rounds.next();
        }
        const round = next.value;
        if (!signal.aborted) {
          const reported = round.usage;
          const written = `${round.text}${round.calls.length ? JSON.stringify(round.calls) : ''}`;
          report?.(
            reported
              ? {
                  promptTokens: reported.prompt_tokens,
                  completionTokens: reported.completion_tokens,
                  estimated: false,
                }
              : {
                  promptTokens: estimateTokens(messagesText(messages)),
                  completionTokens: estimateTokens(written),
                  estimated: true,
                },
          );
        }
        if (signal.aborted || !offering || limited || !round.calls.length) {
          if (round.finish === 'length') cut?.();
          return;
        }
        messages.push({
          role: 'assistant',
          content: round.text || null,
          tool_calls: round.calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        });
        for (const call of round.calls) {
          // Every call asked for is answered (OpenAI requires it); those beyond the limit are not run.
          const content =
            calls < offering.maxSteps
              ? await offering.call(call)
              : `Error: no more than ${offering.maxSteps} tool calls in one reply. Answer with what you have.`;
          calls += 1;
          messages.push({ role: 'tool', tool_call_id: call.id, content });
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
  };
}

/** What a model bot is asked, after the first reply of a conversation, to name the conversation. */
export const titleInstruction =
  'Write a title for this conversation: at most six words, in the language of its first message, naming its subject. Answer with the title alone, without quotes or a full stop.';

/** How much of the first message and of its reply a title is written from. */
const titleExcerpt = 2000;

/**
 * A conversation's title written by the bot's own model (its provider, model and key, as its replies
 * go), in one small request that is not streamed: the first message and the start of its reply.
 * Answers the model's text as it is (null when empty); fails with a ProviderError.
 */
export function openaiTitle(settings: Settings, resolve?: ProviderResolver): TitleWriter {
  return async ({ config, tenant, question, answer, signal }) => {
    const { baseUrl, apiKey, send } = await target(settings, resolve, tenant, config);
    let response: Response;
    try {
      response = await send(endpoint(baseUrl), {
        method: 'POST',
        headers: { ...headers(apiKey), accept: 'application/json' },
        body: JSON.stringify({
          model: setting(config, 'model') ?? settings.model,
          stream: false,
          messages: [
            { role: 'system', content: titleInstruction },
            { role: 'user', content: question.slice(0, titleExcerpt) },
            { role: 'assistant', content: answer.slice(0, titleExcerpt) },
            { role: 'user', content: 'Write the title now.' },
          ],
        }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(settings.idleTimeoutMs)]),
      });
    } catch {
      throw new ProviderError('The model server cannot be reached.', 'PROVIDER_UNREACHABLE');
    }
    if (!response.ok) throw await refusal(response);
    const body = (await response.json().catch(() => null)) as {
      choices?: { message?: { content?: unknown } }[];
    } | null;
    const content = body?.choices?.[0]?.message?.content;
    return typeof content === 'string' && content.trim() ? content : null;
  };
}

/** Machine translation through the same model server, for texts the catalogs lack. */
export function openaiTranslation(settings: Settings): TranslationProvider {
  return async (text, language) => {
    if (!settings.baseUrl) return null;
    const response = await fetch(endpoint(settings.baseUrl), {
      method: 'POST',
      headers: headers(settings.apiKey),
      body: JSON.stringify({
        model: settings.model,
        stream: false,
        messages: [
          {
            role: 'system',
            content: `Translate the user's text from English into the language with code "${language}". Answer with the translation only.`,
          },
          { role: 'user', content: text },
        ],
      }),
      signal: AbortSignal.timeout(settings.idleTimeoutMs),
    });
    if (!response.ok) throw await refusal(response);
    const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
    return body.choices?.[0]?.message?.content?.trim() || null;
  };
}
