import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One line per request, written when it completes, instead of Fastify's two with the whole request and
 * reply objects (measured at a quarter of the throughput at level info). The path is logged without
 * its query: searches and codes stay out of the logs.
 */
export class AccessLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = `${request.method} ${request.url.split('?')[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms ${request.tenant}`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}
