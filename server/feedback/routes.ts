import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { feedbackSchema } from '../chat/schemas';
import { objectOf } from '../schemas';
import { rateReply } from './store';

const id = { type: 'string', maxLength: 64 } as const;

/**
 * `PUT /api/v1/topic/:id/message/:messageId/feedback`: thumbs up or down on a reply of the member's own
 * conversation, with an optional reason; `rating: null` takes it back. Admins see the figures per bot
 * and per model (`/api/v1/admin/feedback`), never the conversation or who.
 */
export const feedbackPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.put(
    '/api/v1/topic/:id/message/:messageId/feedback',
    {
      schema: {
        params: objectOf({ id, messageId: id }, ['id', 'messageId']),
        body: objectOf(
          {
            rating: { type: ['string', 'null'], enum: ['up', 'down', null] },
            reason: { type: 'string', maxLength: 1000 },
          },
          ['rating'],
        ),
        response: { 200: feedbackSchema },
      },
    },
    async (request) => {
      const { rating, reason } = request.body;
      return rateReply(
        app.db,
        request.auth,
        { topic: request.params.id, message: request.params.messageId },
        rating,
        reason?.trim(),
      );
    },
  );
};
