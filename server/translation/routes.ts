import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ApiError } from '../errors';
import { retryIn } from '../security/counters';

/**
 * Longer texts are refused: a message's text is shorter (a long reply goes to the provider in pieces
 * of `pieceLength`), and a provider is paid by the character.
 */
const maxLength = 50_000;

/**
 * `POST /api/v1/translate`: what the memory and the built-in catalogs know is answered to anyone (the
 * logged-out pages need it); whatever would reach the provider needs a token and is limited per user.
 */
export const translatePlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const perMinute = app.config.rateLimits.translatePerUserPerMinute;

  app.post(
    '/api/v1/translate',
    {
      config: { rateLimit: { max: 1200, timeWindow: '1 minute' } },
      // `maxLength` characters as JSON: up to 3 bytes each in UTF-8.
      bodyLimit: 4 * maxLength,
      schema: {
        body: {
          type: 'object',
          required: ['text', 'language'],
          additionalProperties: false,
          properties: {
            text: { type: 'string', minLength: 1 },
            language: { type: 'string', maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' },
          },
        },
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['text', 'translated'],
            properties: {
              text: { type: 'string' },
              translated: {
                type: 'boolean',
                description: 'false: the source text, nobody could translate it',
              },
            },
          },
        },
      },
    },
    async (request) => {
      const { text, language } = request.body;
      if (text.length > maxLength) {
        throw new ApiError(
          413,
          `A text to translate has at most ${maxLength.toLocaleString('en')} characters.`,
          'TEXT_TOO_LONG',
          'text',
        );
      }
      const known = await app.translator.lookup(text, language);
      if (known.translated || !app.translator.hasProvider) return known;
      const claims = await app.sessions.claims(request);
      if (!claims) throw new ApiError(401, 'Log in to translate this text.', 'UNAUTHORIZED');
      const [count] = await app.counters.hit([`translate:${claims.tenant}:${claims.userId}`], 60);
      if (count.count > perMinute) {
        throw new ApiError(
          429,
          `Too many translations. Try again ${retryIn(count.retryAfter)}.`,
          'RATE_LIMITED',
        );
      }
      return app.translator.translate(text, language);
    },
  );
};
