import type { FastifyReply } from 'fastify';

export interface ReplyEvent {
  event: 'message' | 'token' | 'step' | 'done' | 'error';
  data: unknown;
  /** Token events: the length of the reply's text up to and including this token. */
  id?: number;
}

/**
 * Takes over the response for server-sent events (with `headers` besides); answers a writer that
 * ignores a closed connection: `send` writes a named event (the chat's), `data` an unnamed one (OpenAI's).
 */
export function openEventStream(reply: FastifyReply, headers: Record<string, string> = {}) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...headers,
  });
  const write = (text: string) => {
    if (raw.writableEnded || raw.destroyed) return;
    // Events of one tick leave in one write (a burst of tokens is one packet, not one syscall each).
    if (!raw.writableCorked) {
      raw.cork();
      process.nextTick(() => raw.uncork());
    }
    raw.write(text);
  };
  return {
    raw,
    send({ event, data, id }: ReplyEvent) {
      write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    data(data: unknown) {
      write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!raw.writableEnded) raw.end();
    },
  };
}

export type EventStream = ReturnType<typeof openEventStream>;
