import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ApiError } from '../errors';
import { readBilling } from './store';

const billingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['balance', 'reserved', 'currency', 'transactions'],
  properties: {
    balance: { type: 'number' },
    /** What replies in flight hold of the balance. */
    reserved: { type: 'number' },
    currency: { type: 'string' },
    transactions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['_id', 'amount', 'description', 'createdAt'],
        properties: {
          _id: { type: 'string' },
          amount: { type: 'number' },
          description: { type: 'string' },
          createdAt: { type: 'string' },
        },
      },
    },
  },
} as const;

/** Billing of seed-spec §7: the signed-in user's own balance and transactions, nobody else's. */
export const billingPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/payment/billing-info/:userId',
    {
      schema: {
        params: {
          type: 'object',
          required: ['userId'],
          properties: { userId: { type: 'string', maxLength: 64 } },
        },
        response: { 200: billingSchema },
      },
    },
    async (request) => {
      if (request.params.userId !== request.auth.userId) {
        throw new ApiError(403, 'You can only see your own billing information.', 'FORBIDDEN');
      }
      return readBilling(app.db, request.auth);
    },
  );
};
