import type { FastifyReply } from 'fastify';

export interface ReplyEvent {
  event: 'message' | 'token' | 'step' | 'done' | 'error';
  data: unknown;
  /** Token events: the length of the reply's text up to and including this token. */
  id?: number;
}

/** Takes over the response for server-sent events; answers a writer that ignores a closed connection. */
export function openEventStream(reply: FastifyReply) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  return {
    raw,
    send({ event, data, id }: ReplyEvent) {
      if (raw.writableEnded || raw.destroyed) return;
      // Events of one tick leave in one write (a burst of tokens is one packet, not one syscall each).
      if (!raw.writableCorked) {
        raw.cork();
        process.nextTick(() => raw.uncork());
      }
      raw.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!raw.writableEnded) raw.end();
    },
  };
}
