import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import type { ReplyModel } from '../models/store';
import type { Owner } from '../owner';
import {
  type Provider,
  ProviderError,
  type ReplyParameters,
  type ReplyUsage,
  type Turn,
} from '../providers/types';
import { type Outcome, prepareReply, type ReplyRecord, type ReplySink } from '../replies/pipeline';
import { type EventStream, openEventStream } from '../replies/sse';
import { invalidRequest, OpenAiError, serverError, toOpenAiError } from './errors';
import { type ApiBot, releaseCall, renewCall, renewMs, settleCall, storeConversation } from './store';

export interface ChatMessage {
  role: string;
  content?: unknown;
}

/** The text of a message's content: a string, or the text parts of an array (anything else is refused). */
export function textOf(content: unknown, index: number): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) {
    return content
      .map((part, at) => {
        const piece = part as { type?: unknown; text?: unknown };
        if (piece?.type === 'text' && typeof piece.text === 'string') return piece.text;
        throw invalidRequest(
          `Only text content is supported: messages[${index}].content[${at}] is of type ${String(piece?.type)}.`,
          `messages.${index}.content`,
        );
      })
      .join('\n');
  }
  throw invalidRequest(
    `messages[${index}].content must be a string or an array of text parts.`,
    `messages.${index}.content`,
  );
}

/**
 * The conversation as the bot is given it: the request's user and assistant turns (system and developer
 * messages are left out: the bot's own system prompt applies), the last a user's.
 */
export function turnsOf(messages: readonly ChatMessage[]): { history: Turn[]; text: string } {
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') return;
    if (message.role !== 'user' && message.role !== 'assistant')
      throw invalidRequest(
        `Unsupported role '${message.role}' in messages[${index}]: use system, user or assistant.`,
        `messages.${index}.role`,
      );
    const text = textOf(message.content, index);
    if (text.trim()) turns.push({ role: message.role === 'user' ? 'user' : 'bot', text });
  });
  const last = turns.pop();
  if (last?.role !== 'user')
    throw invalidRequest('The last message must be a user message with some text.', 'messages');
  return { history: turns, text: last.text };
}

/** A completion reserved and about to run. */
export interface Completion {
  owner: Owner;
  callId: string;
  bot: ApiBot;
  /** The bot's default catalogue model, when it has some. */
  model: ReplyModel | null;
  /** The request's `temperature`, `max_tokens` and `stop`. */
  parameters: ReplyParameters;
  provider: Provider;
  history: Turn[];
  text: string;
  stream: boolean;
  store: boolean;
  includeUsage: boolean;
}

/** The calls this node runs: stopped, and waited for, when it closes. */
export type RunningCalls = Set<{ callId: string; controller: AbortController; finished: Promise<unknown> }>;

/** A reply's usage as OpenAI writes it. */
const usageOf = (usage: ReplyUsage) => ({
  prompt_tokens: usage.promptTokens,
  completion_tokens: usage.completionTokens,
  total_tokens: usage.promptTokens + usage.completionTokens,
});

/** The call's row in api_calls as the reply's record: its lease renewed, then settled with its usage or released. */
function callRecord(app: FastifyInstance, completion: Completion): ReplyRecord {
  const { owner, callId, model } = completion;
  return {
    renewMs,
    renew: () => renewCall(app.db, callId),
    settle: (_answer, free, usage) =>
      settleCall(app.db, owner, {
        callId,
        description: `Reply from ${completion.bot.name}${model ? ` (${model.name})` : ''} (API)`,
        free,
        usage,
        pricing: model,
      }),
    release: (_text, status) => releaseCall(app.db, owner, { callId, status }),
  };
}

/** An error as OpenAI's clients read it. */
function failureOf(error: unknown): OpenAiError {
  if (error instanceof ProviderError)
    return new OpenAiError(502, error.message, 'server_error', error.code.toLowerCase());
  if (error instanceof OpenAiError || error instanceof ApiError) return toOpenAiError(error);
  return serverError();
}

/**
 * Runs a reserved completion through the reply pipeline (the bot's context and tools as a chat
 * reply's; a tool that asks first is denied, nobody can approve it here), the client leaving stops
 * it (a stopped call costs nothing), and answers it as `chat.completion` JSON or as a stream of
 * `chat.completion.chunk` events.
 */
export async function answerCompletion(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  completion: Completion,
  running: RunningCalls,
) {
  const controller = new AbortController();
  let finished = () => {};
  const entry = {
    callId: completion.callId,
    controller,
    finished: new Promise<void>((resolve) => (finished = resolve)),
  };
  running.add(entry);
  const left = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.on('close', left);
  try {
    const prepared = await prepareReply(app, {
      owner: completion.owner,
      bot: completion.bot,
      model: completion.model,
      parameters: completion.parameters,
      provider: completion.provider,
      conversation: { history: completion.history, text: completion.text },
      steps: { tenant: completion.owner.tenant, apiCallId: completion.callId },
      approvals: false,
      record: callRecord(app, completion),
      log: request.log,
    }).catch((error) => {
      if (!(error instanceof OpenAiError || error instanceof ApiError))
        request.log.error({ err: error }, 'API completion failed');
      throw failureOf(error);
    });
    const chunks = new Chunks(completion);
    if (completion.stream) chunks.open(reply);
    const outcome = await prepared.run(chunks, controller.signal);
    const answer = await ended(app, completion, outcome).catch((error: unknown) => {
      request.log.error({ err: error }, 'API completion failed');
      return failureOf(error);
    });
    if (!completion.stream) return chunks.answer(reply, answer);
    chunks.close(answer);
  } finally {
    reply.raw.off('close', left);
    running.delete(entry);
    finished();
  }
}

/** A completed answer: its text and the tokens it used. */
interface Answered {
  text: string;
  usage: ReplyUsage;
  /** OpenAI's finish reason: `length` when the model reached `max_tokens`. */
  finish: 'stop' | 'length';
}

/** The answer once the reply ended: the text (stored as a topic with `store: true`), or the error to answer. */
async function ended(
  app: FastifyInstance,
  completion: Completion,
  outcome: Outcome,
): Promise<Answered | OpenAiError> {
  if (outcome.end === 'stopped')
    return new OpenAiError(499, 'The request was cancelled.', 'invalid_request_error', 'cancelled');
  if (outcome.end === 'lost')
    return new OpenAiError(
      500,
      'The reply was interrupted. Please try again.',
      'server_error',
      'interrupted',
    );
  if (outcome.end === 'failed') return failureOf(outcome.error);
  if (completion.store)
    await storeConversation(app.db, completion.owner, {
      callId: completion.callId,
      botId: completion.bot.id,
      turns: [...completion.history, { role: 'user', text: completion.text }],
      answer: outcome.text,
      cost: outcome.charge.cost,
    });
  return { text: outcome.text, usage: outcome.usage, finish: outcome.cut ? 'length' : 'stop' };
}

/** The completion as OpenAI writes it: `chat.completion` JSON, or `chat.completion.chunk` events as it is written. */
class Chunks implements ReplySink {
  private readonly id: string;
  private readonly created = Math.floor(Date.now() / 1000);
  private stream: EventStream | null = null;

  constructor(private readonly completion: Completion) {
    this.id = `chatcmpl-${completion.callId.replaceAll('-', '')}`;
  }

  token(text: string) {
    this.stream?.data(this.chunk({ content: text }, null));
  }

  // Steps are not part of OpenAI's stream: the tools' results reach the client through the answer.
  step() {}

  /** The stream's headers and its first chunk (the assistant's role). */
  open(reply: FastifyReply) {
    this.stream = openEventStream(reply);
    this.stream.data(this.chunk({ role: 'assistant', content: '' }, null));
  }

  /** The stream's end: the last chunk, the usage when asked and [DONE]; or an error event (headers already went). */
  close(answer: Answered | OpenAiError) {
    const stream = this.stream;
    if (!stream) return;
    if (answer instanceof OpenAiError) {
      if (answer.code !== 'cancelled') stream.data(answer.body);
    } else {
      stream.data(this.chunk({}, answer.finish));
      if (this.completion.includeUsage)
        stream.data({ ...this.chunk({}, null), choices: [], usage: usageOf(answer.usage) });
      stream.data('[DONE]');
    }
    stream.end();
  }

  /** The whole completion as one `chat.completion`; whether its usage is the provider's or estimated in a header. */
  answer(reply: FastifyReply, answer: Answered | OpenAiError) {
    if (answer instanceof OpenAiError) throw answer;
    reply.header('x-parley-usage', answer.usage.estimated ? 'estimated' : 'provider');
    return {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.completion.bot.id,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.text, refusal: null },
          logprobs: null,
          finish_reason: answer.finish,
        },
      ],
      usage: usageOf(answer.usage),
    };
  }

  private chunk(delta: object, finishReason: string | null) {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.completion.bot.id,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
  }
}
