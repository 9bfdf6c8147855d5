/** A file a user's message carried, as a model is given it. */
export interface Attachment {
  name: string;
  type: string;
  /** An image for a bot that sees images: a data URL of its bytes. */
  dataUrl?: string;
  /** A document's text: all of it, or its beginning when `truncated`. */
  text?: string;
  /** How many characters the whole text has, when only its beginning is given. */
  truncated?: { of: number };
  /** Why the model gets nothing of it (deleted since, an image for a bot that cannot see). */
  omitted?: string;
}

/** One turn of the conversation so far, oldest first. */
export interface Turn {
  /** The stored message, when there is one (to find its files). */
  id?: string;
  role: 'user' | 'bot';
  text: string;
  attachments?: Attachment[];
}

/** A source a reply cites: `[n]` in its text; a passage of a file, or a page the web search found (`url`). */
export interface Citation {
  n: number;
  fileId?: string;
  /** A web page's address (http or https). */
  url?: string;
  /** The file's name, or the page's title. */
  name: string;
  /** The PDF page the passage starts on. */
  page?: number;
  /** The words of the passage that match, as quoted. */
  snippet: string;
}

/** A passage found for the question (in a knowledge base or an attached document), cited as `[n]`. */
export interface Passage extends Citation {
  text: string;
}

/** What searching the bot's documents found: the passages, best first, and how many sources were searched. */
export interface Knowledge {
  passages: Passage[];
  sources: number;
}

/** A function call a model asked for, as OpenAI streams it (its arguments: JSON text). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The tools a model bot may call during one reply. */
export interface ReplyTools {
  /** The functions offered, in OpenAI's `tools` format. */
  definitions: { type: 'function'; function: { name: string; description: string; parameters: unknown } }[];
  /**
   * Runs one call (asking the user first when it must): the text the model reads back, a result or
   * what went wrong. Throws only when the reply is stopped.
   */
  call: (call: ToolCall) => Promise<string>;
  /** How many calls one reply may make; then the model is asked to answer without tools. */
  maxSteps: number;
  /** The reply can do without them: a server that refuses a request with tools is asked without. */
  optional?: boolean;
}

/** What a conversation or an API call sets of a reply (the engine's defaults otherwise). */
export interface ReplyParameters {
  temperature?: number;
  /** The longest reply, in tokens (`max_tokens`). */
  maxTokens?: number;
  /** Where the model stops writing (`stop`, the API's). */
  stop?: string[];
}

/** The tokens a request of a reply read and wrote: the provider's `usage`, or an estimate. */
export interface ReplyUsage {
  promptTokens: number;
  completionTokens: number;
  /** Not reported by the provider: about four characters a token. */
  estimated: boolean;
}

export interface ReplyRequest {
  /** Earlier turns of the topic, without the new message. */
  history: Turn[];
  text: string;
  /** The files the new message carries. */
  attachments?: Attachment[];
  /** The passages of the bot's knowledge bases and of long attached documents that answer the question. */
  knowledge?: Knowledge;
  /** System sections after the bot's own prompt (a project's instructions, the member's, memories). */
  instructions?: string[];
  /** The bot's own settings (`bots.config`). */
  config: Record<string, unknown>;
  tenant: string;
  signal: AbortSignal;
  /** Makes this reply free: a usage hint, or an answer saying what the bot cannot do. */
  waive: () => void;
  /** Temperature, maximum length and stop sequences of this reply, where set. */
  parameters?: ReplyParameters;
  /** Counts the tokens of each request the reply made to its model (a model bot's engine reports them). */
  usage?: (usage: ReplyUsage) => void;
  /** The model stopped at the maximum length (`finish_reason: length`): the reply is cut short. */
  cut?: () => void;
  /** The bot's tools (model bots that have some). */
  tools?: ReplyTools;
  /**
   * What was written of the reply before it ended early, when the user asks to continue it: the
   * provider writes only what follows (it is added to the same message).
   */
  continuing?: string;
}

/** A bot platform: produces the reply as a stream of text pieces; fails with a ProviderError. */
export type Provider = (request: ReplyRequest) => AsyncIterable<string>;

/** A failure the user should read, e.g. the model server is unreachable. */
export class ProviderError extends Error {
  readonly code: string;
  constructor(message: string, code = 'PROVIDER_ERROR') {
    super(message);
    this.code = code;
  }
}

/** How a provider is called: fetch, or one that refuses private addresses when connecting. */
export type Send = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body: string | Uint8Array<ArrayBuffer>;
    signal: AbortSignal;
  },
) => Promise<Response>;

/** An organization's own provider (admin area): its address, its key (unsealed) and how to reach it. */
export interface ResolvedProvider {
  baseUrl: string;
  apiKey: string | undefined;
  /** fetch, or one that refuses private addresses when connecting (server/security/outbound.ts). */
  send: Send;
}
export type ProviderResolver = (tenant: string, providerId: string) => Promise<ResolvedProvider | null>;

/**
 * Names a conversation after its first reply, with the bot's own model (model bots only): the text
 * the model answered, or null; fails with a ProviderError. Never charged to the member.
 */
export type TitleWriter = (request: {
  /** The bot's own settings (`bots.config`). */
  config: Record<string, unknown>;
  tenant: string;
  /** The conversation's first message and the reply to it. */
  question: string;
  answer: string;
  signal: AbortSignal;
}) => Promise<string | null>;
