import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A part of a message's content in OpenAI's wire format: text, or an image by URL (a data URL here). */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } };

export interface ChatRequest {
  model: string;
  stream: boolean;
  messages: { role: string; content: string | ContentPart[] }[];
}

/** The text of a message's content: the string, or its text parts joined. */
export function textOf(content: string | ContentPart[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** The images of a message's content, as their URLs. */
export function imagesOf(content: string | ContentPart[] | undefined): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (part.type === 'image_url' ? [part.image_url.url] : []));
}

/** Whether a content is what OpenAI accepts: a string, or text and image_url parts, each well-formed. */
function validContent(content: unknown): boolean {
  if (typeof content === 'string') return true;
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every(
      (part) =>
        (part?.type === 'text' && typeof part.text === 'string') ||
        (part?.type === 'image_url' &&
          typeof part.image_url?.url === 'string' &&
          /^(https?:|data:image\/(png|jpeg|webp|gif);base64,)/.test(part.image_url.url)),
    )
  );
}

/** What the double answers, chosen by the last user message: a script of chunks and how it ends. */
export interface Script {
  chunks: string[];
  delayMs?: number;
  /** `done`: finish reason and `[DONE]`; `linger`: the same but the connection stays open; `drop`: cut
   * without either; `stall`: nothing more, connection open. */
  end?: 'done' | 'linger' | 'drop' | 'stall';
  status?: number;
  /** Written as it is after the chunks, e.g. a broken `data:` line. */
  raw?: string;
}

/** A request of `POST /v1/embeddings`, as OpenAI takes it. */
export interface EmbeddingRequest {
  model: string;
  input: string | string[];
}

export interface OpenAiDouble {
  url: string;
  requests: ChatRequest[];
  /** The `POST /v1/embeddings` requests, in order. */
  embeddings: EmbeddingRequest[];
  /** Makes `/embeddings` answer after `ms` (0: at once), as a slow model server would. */
  delayEmbeddings: (ms: number) => void;
  /** The `authorization` header of each request, in order. */
  authorizations: (string | undefined)[];
  /** Streams the client closed before the script was over. */
  abandoned: () => number;
  /**
   * When each request arrived and its first chunk left (`performance.now()` of this process), by the
   * last user message: what the double itself took, to subtract from a time measured through Parley.
   */
  timings: Map<string, { received: number; firstChunk: number }>;
  /** Overrides what the next requests answer; by default the reply echoes the last user message. */
  script: (next: (request: ChatRequest) => Script) => void;
  close: () => Promise<void>;
}

const chunk = (id: string, delta: Record<string, unknown>, finish: string | null) =>
  `data: ${JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'double-1',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

/** Dimensions of the double's vectors. */
const dimensions = 256;

/**
 * A deterministic embedding: a bag of words hashed into `dimensions` buckets, normalised. Texts
 * sharing words are near (cosine), texts sharing none are orthogonal, so tests can check ranking.
 */
export function embeddingOf(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (const character of word) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16777619);
    vector[(hash >>> 0) % dimensions] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * Stands in for a remote OpenAI-compatible server, speaking its real wire format over HTTP:
 * `POST /v1/chat/completions` with `stream: true` answers server-sent `chat.completion.chunk`s
 * and `data: [DONE]`; errors are the JSON error body with an HTTP status.
 */
export async function startOpenAiDouble(): Promise<OpenAiDouble> {
  const requests: ChatRequest[] = [];
  const embeddings: EmbeddingRequest[] = [];
  let embeddingDelayMs = 0;
  const timings = new Map<string, { received: number; firstChunk: number }>();
  const authorizations: (string | undefined)[] = [];
  let abandoned = 0;
  let scriptFor = (request: ChatRequest): Script => ({
    chunks: ['You said: ', ...textOf(request.messages.at(-1)?.content).split(/(?<= )/)],
  });
  const open = new Set<ServerResponse>();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const received = performance.now();
    let body = '';
    for await (const piece of request) body += piece;
    // The model list, as OpenAI answers GET /v1/models.
    if (request.method === 'GET' && request.url === '/v1/models') {
      authorizations.push(request.headers.authorization);
      sendJson(response, 200, {
        object: 'list',
        data: ['double-1', 'double-2'].map((id) => ({ id, object: 'model', created: 0, owned_by: 'double' })),
      });
      return;
    }
    // Vectors, in OpenAI's wire format: one `embedding` object per input, in order.
    if (request.method === 'POST' && request.url === '/v1/embeddings') {
      const asked = JSON.parse(body) as EmbeddingRequest;
      embeddings.push(asked);
      if (embeddingDelayMs) await new Promise((resolve) => setTimeout(resolve, embeddingDelayMs));
      const inputs = Array.isArray(asked.input) ? asked.input : [asked.input];
      sendJson(response, 200, {
        object: 'list',
        data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: embeddingOf(input) })),
        model: asked.model,
        usage: {
          prompt_tokens: inputs.join(' ').split(/\s+/).length,
          total_tokens: inputs.join(' ').split(/\s+/).length,
        },
      });
      return;
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      sendJson(response, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
      return;
    }
    const chat = JSON.parse(body) as ChatRequest;
    requests.push(chat);
    authorizations.push(request.headers.authorization);
    // As OpenAI does: a malformed content part is a 400, never silently read.
    const invalid = chat.messages.findIndex((message) => !validContent(message.content));
    if (invalid >= 0) {
      sendJson(response, 400, {
        error: { message: `Invalid content in messages[${invalid}].`, type: 'invalid_request_error' },
      });
      return;
    }
    const script = scriptFor(chat);
    if (script.status && script.status >= 400) {
      sendJson(response, script.status, {
        error: { message: script.chunks[0] ?? 'error', type: 'server_error', code: null },
      });
      return;
    }
    if (!chat.stream) {
      const message = { role: 'assistant', content: script.chunks.join('') };
      sendJson(response, 200, {
        id: 'chatcmpl-x',
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: 'stop' }],
      });
      return;
    }
    open.add(response);
    response.on('close', () => open.delete(response));
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = `chatcmpl-${requests.length}`;
    response.write(chunk(id, { role: 'assistant', content: '' }, null));
    timings.set(textOf(chat.messages.at(-1)?.content), { received, firstChunk: performance.now() });
    for (const piece of script.chunks) {
      if (response.destroyed) {
        abandoned += 1;
        return;
      }
      response.write(chunk(id, { content: piece }, null));
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
    }
    if (script.raw) response.write(script.raw);
    // A connection cut mid-reply: no finish reason, no [DONE].
    if (script.end === 'drop') return void response.end();
    if (script.end === 'stall') return;
    response.write(chunk(id, {}, 'stop'));
    if (script.end === 'linger') return void response.write('data: [DONE]\n\n');
    response.end('data: [DONE]\n\n');
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddings,
    delayEmbeddings: (ms) => {
      embeddingDelayMs = ms;
    },
    authorizations,
    abandoned: () => abandoned,
    timings,
    script: (next) => {
      scriptFor = next;
    },
    close: async () => {
      for (const response of open) response.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections would hold the close for seconds.
      server.closeAllConnections();
      await closed;
    },
  };
}
