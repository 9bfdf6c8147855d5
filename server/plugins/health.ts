import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { migrated } from '../db/migrate';

const status = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string' } },
} as const;

/** `/health`: the process answers. `/ready`: it can serve (database reachable, migrated, not draining). */
export const healthPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const free = { anyTenant: true, rateLimit: false } as const;
  app.get('/health', { config: free, schema: { response: { 200: status } } }, async () => ({ status: 'ok' }));

  app.get(
    '/ready',
    { config: free, schema: { response: { 200: status, 503: status } } },
    async (_request, reply) => {
      if (!app.liveReplies.accepting) return reply.code(503).send({ status: 'draining' });
      try {
        if (!(await migrated(app.db))) return reply.code(503).send({ status: 'migrating' });
      } catch {
        return reply.code(503).send({ status: 'database unreachable' });
      }
      return { status: 'ready' };
    },
  );
};
