import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ApiError } from '../errors';
import { stepSchema } from './schemas';
import { decideStep } from './steps';

/**
 * `POST /api/v1/topic/:id/tool-call/:callId { approve }`: the user's answer to an "ask first" call of
 * a reply in their topic. Stored in the database, so it works from any node: the node generating the
 * reply reads it there. Only this route approves a call: nothing a tool or model says can.
 */
export const toolCallsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.post(
    '/api/v1/topic/:id/tool-call/:callId',
    {
      schema: {
        params: {
          type: 'object',
          required: ['id', 'callId'],
          properties: { id: { type: 'string', maxLength: 64 }, callId: { type: 'string', maxLength: 64 } },
        },
        body: {
          type: 'object',
          required: ['approve'],
          additionalProperties: false,
          properties: { approve: { type: 'boolean' } },
        },
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['step'],
            properties: { step: stepSchema },
          },
        },
      },
    },
    async (request) => {
      const owner = { tenant: request.auth.tenant, userId: request.auth.userId };
      const decided = await decideStep(
        app.db,
        owner,
        request.params.id,
        request.params.callId,
        request.body.approve,
      );
      if (decided === null) throw new ApiError(404, 'This tool call does not exist.', 'NOT_FOUND');
      if (decided === 'not awaiting')
        throw new ApiError(409, 'This tool call is not waiting for an answer any more.', 'NOT_AWAITING');
      return { step: decided };
    },
  );
};
