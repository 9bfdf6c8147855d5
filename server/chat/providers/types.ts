/** One turn of the conversation so far, oldest first. */
export interface Turn {
  role: 'user' | 'bot';
  text: string;
}

export interface ReplyRequest {
  /** Earlier turns of the topic, without the new message. */
  history: Turn[];
  text: string;
  /** The bot's own settings (`bots.config`). */
  config: Record<string, unknown>;
  tenant: string;
  signal: AbortSignal;
  /** Makes this reply free: a usage hint, or an answer saying what the bot cannot do. */
  waive: () => void;
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
