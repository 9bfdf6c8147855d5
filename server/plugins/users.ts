import type { FastifyPluginAsync } from 'fastify';
import { ApiError, notFound } from '../errors';

/** `GET /api/v1/user/me` and `GET /payment/billing-info/:userId` (own user only). */
export const usersPlugin: FastifyPluginAsync = async (app) => {
  app.get('/api/v1/user/me', { preHandler: app.authenticate }, async (request) => {
    const { rows } = await app.db.query<{
      id: string;
      username: string;
      display_name: string;
      email: string;
      created_at: Date;
    }>('select id, username, display_name, email, created_at from users where id = $1 and tenant = $2', [
      request.auth.userId,
      request.tenant,
    ]);
    const user = rows[0];
    if (!user) throw notFound('User');
    return {
      _id: user.id,
      username: user.username,
      displayName: user.display_name,
      email: user.email,
      organization: request.tenant,
      createdAt: new Date(user.created_at).toISOString(),
    };
  });

  app.get<{ Params: { userId: string } }>(
    '/payment/billing-info/:userId',
    {
      preHandler: app.authenticate,
      schema: { params: { type: 'object', properties: { userId: { type: 'string', maxLength: 64 } } } },
    },
    async (request) => {
      if (request.params.userId !== request.auth.userId) {
        throw new ApiError(403, 'You can only see your own billing information.', 'FORBIDDEN');
      }
      const { rows } = await app.db.query<{ balance: string; currency: string }>(
        'select balance, currency from users where id = $1 and tenant = $2',
        [request.auth.userId, request.tenant],
      );
      if (!rows[0]) throw notFound('User');
      const { rows: transactions } = await app.db.query<{
        id: string;
        amount: string;
        description: string;
        created_at: Date;
      }>(
        'select id, amount, description, created_at from transactions where user_id = $1 and tenant = $2 order by created_at desc limit 50',
        [request.auth.userId, request.tenant],
      );
      return {
        balance: Number(rows[0].balance),
        currency: rows[0].currency,
        transactions: transactions.map((row) => ({
          _id: row.id,
          amount: Number(row.amount),
          description: row.description,
          createdAt: new Date(row.created_at).toISOString(),
        })),
      };
    },
  );
};
