import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors';
import { readBilling } from './store';

/** Billing of seed-spec §7: the signed-in user's own balance and transactions, nobody else's. */
export const billingPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get<{ Params: { userId: string } }>(
    '/payment/billing-info/:userId',
    { schema: { params: { type: 'object', properties: { userId: { type: 'string', maxLength: 64 } } } } },
    async (request) => {
      if (request.params.userId !== request.auth.userId) {
        throw new ApiError(403, 'You can only see your own billing information.', 'FORBIDDEN');
      }
      return readBilling(app.db, request.auth);
    },
  );
};
