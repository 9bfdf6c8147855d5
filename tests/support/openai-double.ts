import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { titleInstruction } from '../../server/replies/engines/openai';

/** A part of a message's content in OpenAI's wire format: text, or an image by URL (a data URL here). */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } };

/** A function call in OpenAI's wire format: its arguments are JSON text. */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A function offered to the model (`tools` of the request). */
export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatMessage {
  role: string;
  content: string | ContentPart[] | null;
  /** An assistant's calls (its content may then be null). */
  tool_calls?: WireToolCall[];
  /** A `tool` message: the call it answers. */
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  stream: boolean;
  messages: ChatMessage[];
  tools?: WireTool[];
  tool_choice?: unknown;
  temperature?: number;
  max_tokens?: number;
  stop?: string | string[];
  /** `include_usage`: the stream ends with a chunk carrying the request's `usage`, as OpenAI sends it. */
  stream_options?: { include_usage?: boolean };
}

/** The tokens a request read and wrote, as OpenAI reports them. */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** The text of a message's content: the string, or its text parts joined. */
export function textOf(content: string | ContentPart[] | null | undefined): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** The images of a message's content, as their URLs. */
export function imagesOf(content: string | ContentPart[] | null | undefined): string[] {
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

/**
 * Why OpenAI would refuse the request's messages and tools, or null: tool names as OpenAI allows
 * them, every `tool` message answering a call of the assistant message before it, and every call
 * answered before the conversation goes on.
 */
function invalidTools(chat: ChatRequest): string | null {
  for (const [index, tool] of (chat.tools ?? []).entries()) {
    if (tool?.type !== 'function' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function?.name ?? ''))
      return `Invalid 'tools[${index}]': a function with a name of 1 to 64 letters, digits, _ or -.`;
  }
  let open = new Set<string>();
  for (const [index, message] of chat.messages.entries()) {
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || !open.has(message.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${index}]).`;
      if (typeof message.content !== 'string') return `Invalid content in messages[${index}].`;
      open.delete(message.tool_call_id);
      continue;
    }
    if (open.size)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
    if (message.role === 'assistant' && message.tool_calls?.length) {
      if (message.content !== null && typeof message.content !== 'string')
        return `Invalid content in messages[${index}].`;
      if (
        !message.tool_calls.every(
          (call) => call.type === 'function' && typeof call.function?.arguments === 'string',
        )
      )
        return `Invalid 'messages[${index}].tool_calls'.`;
      open = new Set(message.tool_calls.map((call) => call.id));
      continue;
    }
    if (!validContent(message.content)) return `Invalid content in messages[${index}].`;
  }
  return null;
}

/** A call the double makes: the function's name and its arguments (an object, or JSON text as is). */
export interface ScriptedCall {
  name: string;
  arguments?: unknown;
  /** The call's id; by default `call_<n>`. */
  id?: string;
}

/** What the double answers, chosen by the last user message: a script of chunks and how it ends. */
export interface Script {
  chunks: string[];
  /**
   * Function calls after the chunks: streamed in fragments as OpenAI does (id and name first, the
   * arguments in pieces), ending with finish reason `tool_calls`.
   */
  toolCalls?: ScriptedCall[];
  delayMs?: number;
  /** `done`: finish reason and `[DONE]`; `linger`: the same but the connection stays open; `drop`: cut
   * without either; `stall`: nothing more, connection open. */
  end?: 'done' | 'linger' | 'drop' | 'stall';
  status?: number;
  /** Written as it is after the chunks, e.g. a broken `data:` line. */
  raw?: string;
  /**
   * The usage reported (streamed only when the request asks with `stream_options.include_usage`);
   * by default a word count of the messages and the number of chunks; null: none, as a server that
   * does not report usage.
   */
  usage?: WireUsage | null;
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
  /**
   * Parley's requests for a conversation's title (system message `titleInstruction`, not streamed),
   * kept apart from `requests` so that a test of replies sees the replies' requests only.
   */
  titleRequests: ChatRequest[];
  /** Overrides what title requests answer; by default the first line of their first user message. */
  scriptTitles: (next: (request: ChatRequest) => Script) => void;
  /** Image generation (`POST /v1/images/generations`): the requests, in order. */
  imageRequests: ImageRequest[];
  /** Overrides what the next image requests answer; by default a real PNG as `b64_json`. */
  scriptImages: (next: (request: ImageRequest) => ImageScript) => void;
  /** Voice: `/v1/audio/transcriptions` and `/v1/audio/speech` (issue 35). */
  audio: AudioDouble;
  close: () => Promise<void>;
}

/** A model's turn in a scripted exchange with tools: calls to make, or the answer once they are done. */
export type ToolTurn =
  | { call: ScriptedCall | ScriptedCall[]; chunks?: string[] }
  | { answer: (results: string[], request: ChatRequest) => string | string[] };

/**
 * A script that plays `turns` in order within one reply: the first answers the user's message, each
 * next one the results of the calls before it (the `tool` messages after the last user message),
 * e.g. `[{ call: { name: 'calculator', arguments: { expression: '2+3' } } }, { call: { name:
 * 'current_time' } }, { answer: (results) => `That is ${results[0]}` }]`. Past the last turn, the last
 * one plays again.
 */
export function toolSteps(turns: ToolTurn[], rest: Omit<Script, 'chunks' | 'toolCalls'> = {}) {
  return (request: ChatRequest): Script => {
    const asked = request.messages.findLastIndex((message) => message.role === 'user');
    const since = request.messages.slice(asked + 1);
    const played = since.filter(
      (message) => message.role === 'assistant' && message.tool_calls?.length,
    ).length;
    const results = since
      .filter((message) => message.role === 'tool')
      .map((message) => textOf(message.content));
    const turn = turns[Math.min(played, turns.length - 1)];
    if ('answer' in turn) {
      const answer = turn.answer(results, request);
      return { ...rest, chunks: Array.isArray(answer) ? answer : answer.split(/(?<= )/) };
    }
    return { ...rest, chunks: turn.chunks ?? [], toolCalls: [turn.call].flat() };
  };
}

/** The arguments as JSON text, cut in three pieces as a model streams them. */
function argumentPieces(args: unknown): string[] {
  const text = typeof args === 'string' ? args : JSON.stringify(args ?? {});
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)].filter(Boolean);
}

/** A streamed chunk; with `include_usage`, OpenAI adds `usage: null` to every chunk but the last. */
const chunk = (id: string, delta: Record<string, unknown>, finish: string | null, usage = false) =>
  `data: ${JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'double-1',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage: null } : {}),
  })}\n\n`;

/** The last chunk with `include_usage`: no choices, the request's usage (OpenAI's whole object). */
const usageChunk = (id: string, usage: WireUsage) =>
  `data: ${JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'double-1',
    choices: [],
    usage: wireUsage(usage),
  })}\n\n`;

const wireUsage = (usage: WireUsage) => ({
  ...usage,
  total_tokens: usage.prompt_tokens + usage.completion_tokens,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 0,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
});

/** The double's own count when a script sets none: the words of every message, and the chunks written. */
const countedUsage = (chat: ChatRequest, script: Script): WireUsage => ({
  prompt_tokens: chat.messages
    .map((message) => textOf(message.content))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean).length,
  completion_tokens: script.chunks.length,
});

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

// ---- Images: OpenAI's `POST /v1/images/generations` ------------------------------------------------

/** A request of `POST /v1/images/generations`, as OpenAI takes it. */
export interface ImageRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  response_format?: 'url' | 'b64_json';
}

/**
 * What an image request answers: the image as `b64_json` (default), or as a `url` (served by the
 * double at `/v1/generated/<n>.png`, or `url` as given), or an error with its HTTP status; `delayMs`
 * first, as a slow image model.
 */
export type ImageScript =
  | { as?: 'b64_json' | 'url'; url?: string; delayMs?: number; revisedPrompt?: string }
  | {
      status: number;
      message: string;
    };

/** The sizes OpenAI's image models take. */
const openAiImageSizes = [
  '256x256',
  '512x512',
  '1024x1024',
  '1024x1536',
  '1536x1024',
  '1792x1024',
  '1024x1792',
  'auto',
];

/** A real small PNG, its colour from `seed`: each image made is different bytes. */
const testPng = (seed = 0) =>
  sharp({
    create: { width: 48, height: 32, channels: 3, background: { r: (seed * 53) % 256, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();

/**
 * Answers an image request as OpenAI does: 400 for what OpenAI refuses (no prompt, a size it does not
 * make, a `response_format` it does not know), else `{ created, data: [{ b64_json | url, revised_prompt }] }`.
 */
async function answerImage(
  body: string,
  images: {
    requests: ImageRequest[];
    made: Buffer[];
    scriptFor: (request: ImageRequest) => ImageScript;
    url: string;
  },
  response: ServerResponse,
) {
  const asked = JSON.parse(body) as ImageRequest;
  images.requests.push(asked);
  const invalid = (message: string, param: string) =>
    sendJson(response, 400, { error: { message, type: 'invalid_request_error', param, code: null } });
  if (typeof asked.prompt !== 'string' || !asked.prompt)
    return invalid('You must provide a prompt.', 'prompt');
  if (asked.size !== undefined && !openAiImageSizes.includes(asked.size))
    return invalid(
      `Invalid value: '${asked.size}'. Supported values are: ${openAiImageSizes.map((size) => `'${size}'`).join(', ')}.`,
      'size',
    );
  if (asked.response_format !== undefined && !['url', 'b64_json'].includes(asked.response_format))
    return invalid(
      `Invalid value: '${asked.response_format}'. Supported values are: 'url' and 'b64_json'.`,
      'response_format',
    );
  const script = images.scriptFor(asked);
  if ('status' in script)
    return sendJson(response, script.status, {
      error: { message: script.message, type: 'server_error', code: null },
    });
  if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
  const png = await testPng(images.requests.length);
  images.made.push(png);
  const image =
    (script.as ?? asked.response_format ?? 'url') === 'url'
      ? { url: script.url ?? `${images.url}/generated/${images.made.length - 1}.png` }
      : { b64_json: png.toString('base64') };
  sendJson(response, 200, {
    created: Math.floor(Date.now() / 1000),
    data: [{ ...image, ...(script.revisedPrompt ? { revised_prompt: script.revisedPrompt } : {}) }],
  });
}

// ---- End of images ---------------------------------------------------------------------------------

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * Stands in for a remote OpenAI-compatible server, speaking its real wire format over HTTP:
 * `POST /v1/chat/completions` with `stream: true` answers server-sent `chat.completion.chunk`s
 * and `data: [DONE]`; errors are the JSON error body with an HTTP status. With `tools`, a script
 * may call them (`toolCalls`, or `toolSteps` for a whole exchange): streamed as `delta.tool_calls`
 * fragments with finish reason `tool_calls`, or as `message.tool_calls` when not streamed; the
 * `tool` messages sent back are checked as OpenAI checks them. It reports `usage` as OpenAI does
 * (the whole answer's; streamed, a last chunk without choices when `stream_options.include_usage`),
 * and `requests` keep everything sent, `temperature`, `max_tokens` and `stop` included.
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
  const titleRequests: ChatRequest[] = [];
  let titleFor = (request: ChatRequest): Script => ({
    chunks: [textOf(request.messages.find((message) => message.role === 'user')?.content).split('\n')[0]],
  });
  const open = new Set<ServerResponse>();
  const images = {
    requests: [] as ImageRequest[],
    made: [] as Buffer[],
    scriptFor: (_request: ImageRequest): ImageScript => ({}),
    url: '',
  };
  const audio = audioEndpoints();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const received = performance.now();
    const pieces: Buffer[] = [];
    for await (const piece of request) pieces.push(piece as Buffer);
    const bytes = Buffer.concat(pieces);
    const body = bytes.toString();
    if (await audio.handle(request, bytes, response)) return;
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
    if (request.method === 'POST' && request.url === '/v1/images/generations') {
      authorizations.push(request.headers.authorization);
      return answerImage(body, images, response);
    }
    // An image answered as a `url`: its bytes, as OpenAI's storage serves them.
    const generated = request.method === 'GET' && /^\/v1\/generated\/(\d+)\.png$/.exec(request.url ?? '');
    if (generated && images.made[Number(generated[1])]) {
      response.writeHead(200, { 'content-type': 'image/png' });
      return void response.end(images.made[Number(generated[1])]);
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      sendJson(response, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
      return;
    }
    const chat = JSON.parse(body) as ChatRequest;
    const titling = chat.messages[0]?.role === 'system' && chat.messages[0].content === titleInstruction;
    if (titling) titleRequests.push(chat);
    else {
      requests.push(chat);
      authorizations.push(request.headers.authorization);
    }
    // As OpenAI does: a malformed content part, tool or tool message is a 400, never silently read.
    const invalid = invalidTools(chat);
    if (invalid) {
      sendJson(response, 400, { error: { message: invalid, type: 'invalid_request_error' } });
      return;
    }
    const scripted = titling ? titleFor(chat) : scriptFor(chat);
    // As OpenAI does, a reply stops at `max_tokens` (each chunk counting as a token) with finish reason `length`.
    const long = chat.max_tokens !== undefined && scripted.chunks.length > chat.max_tokens;
    const script = long ? { ...scripted, chunks: scripted.chunks.slice(0, chat.max_tokens) } : scripted;
    if (script.status && script.status >= 400) {
      sendJson(response, script.status, {
        error: { message: script.chunks[0] ?? 'error', type: 'server_error', code: null },
      });
      return;
    }
    const calls = (script.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_${requests.length}_${index}`,
      name: call.name,
      pieces: argumentPieces(call.arguments),
    }));
    const finishReason = calls.length ? 'tool_calls' : long ? 'length' : 'stop';
    if (!chat.stream) {
      // Not streamed, the answer comes whole, after the time its pieces would take.
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
      const content = script.chunks.join('');
      const message = {
        role: 'assistant',
        content: calls.length && !content ? null : content,
        ...(calls.length
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.pieces.join('') },
              })),
            }
          : {}),
      };
      const usage = script.usage === undefined ? countedUsage(chat, script) : script.usage;
      sendJson(response, 200, {
        id: 'chatcmpl-x',
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finishReason }],
        ...(usage ? { usage: wireUsage(usage) } : {}),
      });
      return;
    }
    open.add(response);
    response.on('close', () => open.delete(response));
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = `chatcmpl-${requests.length}`;
    const counting = chat.stream_options?.include_usage === true;
    response.write(chunk(id, { role: 'assistant', content: '' }, null, counting));
    timings.set(textOf(chat.messages.at(-1)?.content), { received, firstChunk: performance.now() });
    for (const piece of script.chunks) {
      if (response.destroyed) {
        abandoned += 1;
        return;
      }
      response.write(chunk(id, { content: piece }, null, counting));
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
    }
    // Each call in fragments: its id, type and name with empty arguments, then the arguments in pieces.
    const fragments = calls.flatMap((call, index) => [
      { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
      ...call.pieces.map((piece) => ({ index, function: { arguments: piece } })),
    ]);
    for (const fragment of fragments) {
      if (response.destroyed) {
        abandoned += 1;
        return;
      }
      response.write(chunk(id, { tool_calls: [fragment] }, null, counting));
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
    }
    if (script.raw) response.write(script.raw);
    // A connection cut mid-reply: no finish reason, no [DONE].
    if (script.end === 'drop') return void response.end();
    if (script.end === 'stall') return;
    response.write(chunk(id, {}, finishReason, counting));
    // The usage comes last, after the finish reason, before [DONE].
    const usage = script.usage === undefined ? countedUsage(chat, script) : script.usage;
    if (counting && usage) response.write(usageChunk(id, usage));
    if (script.end === 'linger') return void response.write('data: [DONE]\n\n');
    response.end('data: [DONE]\n\n');
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  images.url = `http://127.0.0.1:${port}/v1`;
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
    titleRequests,
    scriptTitles: (next) => {
      titleFor = next;
    },
    imageRequests: images.requests,
    scriptImages: (next) => {
      images.scriptFor = next;
    },
    audio: audio.double,
    close: async () => {
      for (const response of open) response.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections would hold the close for seconds.
      server.closeAllConnections();
      await closed;
    },
  };
}

// ---- Voice (issue 35): OpenAI's audio endpoints --------------------------------------------------

/** A `POST /v1/audio/transcriptions` as received: its form fields, and the file's name and size. */
export interface TranscriptionRequest {
  model: string;
  responseFormat: string;
  fileName: string;
  size: number;
  authorization: string | undefined;
}

/** A `POST /v1/audio/speech` as received (its JSON body). */
export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  response_format?: string;
  authorization: string | undefined;
}

export interface AudioScript {
  /** The transcript (default: "Hello from the microphone"). */
  text?: string;
  /** The duration reported for formats whose length the double does not read (default 3.5 s); a WAV's own length otherwise. */
  duration?: number;
  /** An HTTP status to refuse with (OpenAI's error JSON). */
  status?: number;
  /** Waits this long before answering (a slow or hanging service). */
  delayMs?: number;
  /** Seconds of (silent) MP3 a speech streams (default 2). */
  speechSeconds?: number;
}

export interface AudioDouble {
  transcriptions: TranscriptionRequest[];
  speeches: SpeechRequest[];
  /** What the next audio requests answer. */
  script: (next: AudioScript) => void;
}

/** OpenAI's accepted extensions; it reads the format from the file name. */
const audioExtensions = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'];

/** Whether the bytes start as their extension says (enough for the double to refuse a mislabelled file, as OpenAI does). */
function looksLike(extension: string, bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 12));
  switch (extension) {
    case 'wav':
      return head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WAVE';
    case 'webm':
      return head.readUInt32BE(0) === 0x1a45dfa3;
    case 'ogg':
      return head.toString('latin1', 0, 4) === 'OggS';
    case 'mp3':
      return head.toString('latin1', 0, 3) === 'ID3' || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0);
    default:
      return head.toString('latin1', 4, 8) === 'ftyp';
  }
}

/** A WAV's length in seconds: its data chunk over its byte rate. */
function wavDuration(bytes: Buffer): number {
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32LE(at + 4);
    if (bytes.toString('latin1', at, at + 4) === 'fmt ') byteRate = bytes.readUInt32LE(at + 16);
    if (bytes.toString('latin1', at, at + 4) === 'data')
      return Math.min(size, bytes.length - at - 8) / byteRate;
    at += 8 + size + (size % 2);
  }
  return 0;
}

/** One silent MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz, mono): 1,152 samples, 26 ms. */
const silentFrame = (() => {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return frame;
})();

/** The audio endpoints, as OpenAI answers them; `handle` answers true when the request was theirs. */
function audioEndpoints() {
  const transcriptions: TranscriptionRequest[] = [];
  const speeches: SpeechRequest[] = [];
  let script: AudioScript = {};
  const refuse = (response: ServerResponse, status: number, message: string) =>
    sendJson(response, status, {
      error: { message, type: 'invalid_request_error', param: null, code: null },
    });

  async function handle(request: IncomingMessage, bytes: Buffer, response: ServerResponse): Promise<boolean> {
    if (request.method !== 'POST') return false;
    if (request.url === '/v1/audio/transcriptions') {
      const form = await new Request('http://double/', {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type'] ?? '' },
        body: new Uint8Array(bytes),
      })
        .formData()
        .catch(() => null);
      const file = form?.get('file');
      const model = form?.get('model');
      if (!form || !(file instanceof File) || typeof model !== 'string') {
        refuse(response, 400, "Missing required parameter: 'file' or 'model'.");
        return true;
      }
      const responseFormat = String(form.get('response_format') ?? 'json');
      transcriptions.push({
        model,
        responseFormat,
        fileName: file.name,
        size: file.size,
        authorization: request.headers.authorization,
      });
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
      if (script.status) {
        refuse(response, script.status, 'The audio service is unavailable.');
        return true;
      }
      const extension = file.name.split('.').pop() ?? '';
      const content = Buffer.from(await file.arrayBuffer());
      if (!audioExtensions.includes(extension) || !looksLike(extension, content)) {
        refuse(response, 400, `Invalid file format. Supported formats: ${JSON.stringify(audioExtensions)}`);
        return true;
      }
      const text = script.text ?? 'Hello from the microphone';
      const duration = extension === 'wav' ? wavDuration(content) : (script.duration ?? 3.5);
      if (responseFormat === 'verbose_json')
        sendJson(response, 200, {
          task: 'transcribe',
          language: 'english',
          duration,
          text,
          segments: [
            {
              id: 0,
              seek: 0,
              start: 0,
              end: duration,
              text,
              tokens: [],
              temperature: 0,
              avg_logprob: -0.2,
              compression_ratio: 1,
              no_speech_prob: 0.01,
            },
          ],
          usage: { type: 'duration', seconds: Math.ceil(duration) },
        });
      else sendJson(response, 200, { text, usage: { type: 'duration', seconds: Math.ceil(duration) } });
      return true;
    }
    if (request.url === '/v1/audio/speech') {
      const asked = JSON.parse(bytes.toString() || '{}') as Omit<SpeechRequest, 'authorization'>;
      if (
        typeof asked.model !== 'string' ||
        typeof asked.input !== 'string' ||
        typeof asked.voice !== 'string'
      ) {
        refuse(response, 400, "Missing required parameter: 'model', 'input' or 'voice'.");
        return true;
      }
      if (asked.input.length > 4096) {
        refuse(response, 400, "'input' is longer than 4096 characters.");
        return true;
      }
      speeches.push({ ...asked, authorization: request.headers.authorization });
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
      if (script.status) {
        refuse(response, script.status, 'The audio service is unavailable.');
        return true;
      }
      // Streamed as OpenAI does: chunked, audio/mpeg, a few frames at a time.
      response.writeHead(200, { 'content-type': 'audio/mpeg', 'transfer-encoding': 'chunked' });
      const frames = Math.round(((script.speechSeconds ?? 2) * 44_100) / 1152);
      for (let sent = 0; sent < frames && !response.destroyed; sent += 20)
        response.write(Buffer.concat(Array(Math.min(20, frames - sent)).fill(silentFrame)));
      response.end();
      return true;
    }
    return false;
  }

  return {
    handle,
    double: {
      transcriptions,
      speeches,
      script: (next: AudioScript) => {
        script = next;
      },
    } satisfies AudioDouble,
  };
}
