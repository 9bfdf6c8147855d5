import type { FastifyPluginAsync } from 'fastify';

/** `POST /api/v1/translate`: public, since logged-out pages are translated too. */
export const translatePlugin: FastifyPluginAsync = async (app) => {
  app.post<{ Body: { text: string; language: string } }>(
    '/api/v1/translate',
    {
      config: { rateLimit: { max: 1200, timeWindow: '1 minute' } },
      schema: {
        body: {
          type: 'object',
          required: ['text', 'language'],
          additionalProperties: false,
          properties: {
            text: { type: 'string', minLength: 1, maxLength: 5000 },
            language: { type: 'string', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' },
          },
        },
      },
    },
    async (request) => app.translator.translate(request.body.text, request.body.language),
  );
};
