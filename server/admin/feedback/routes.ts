import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { objectOf } from '../../schemas';
import { feedbackFigures, reasonsShown } from './store';

const named = (what: string) =>
  ({
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['_id', 'name'],
    properties: { _id: { type: 'string' }, name: { type: 'string' } },
    description: what,
  }) as const;

const figuresSchema = {
  type: 'array',
  items: objectOf(
    {
      bot: named('null: a bot deleted since'),
      model: named('null: the bot’s own model (no catalogue model), or a model removed since'),
      up: { type: 'integer' },
      down: { type: 'integer' },
      reasons: {
        type: 'array',
        description: `the ${reasonsShown} newest reasons given, newest first`,
        items: objectOf(
          {
            text: { type: 'string' },
            rating: { type: 'string', enum: ['up', 'down'], description: 'the thumb it was given with' },
            at: { type: 'string' },
          },
          ['text', 'rating', 'at'],
        ),
      },
    },
    ['bot', 'model', 'up', 'down', 'reasons'],
  ),
} as const;

/** `GET /api/v1/admin/feedback`: the members' thumbs per bot and model, with their reasons (never who). */
export const feedbackAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get('/feedback', { schema: { response: { 200: figuresSchema } } }, (request) =>
    feedbackFigures(app.db, request.tenant),
  );
};
