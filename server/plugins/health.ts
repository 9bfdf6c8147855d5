import type { FastifyPluginAsync } from 'fastify';

export const healthPlugin: FastifyPluginAsync = async (app) => {
  app.get(
    '/health',
    {
      config: { anyTenant: true, rateLimit: false },
      schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } },
    },
    async () => ({ status: 'ok' }),
  );
};
