import type { FastifyPluginAsync } from 'fastify';
import { ApiError, notFound } from '../errors';
import { normalizeDisplayName, normalizeUsername } from './names';
import { exportUser, readUser } from './store';

/** The signed-in user: read, edit, export and delete the account; billing of seed-spec §7 (own user only). */
export const usersPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get('/api/v1/user/me', async (request) => readUser(app.db, request.auth));

  app.patch<{ Body: { displayName?: string; username?: string } }>(
    '/api/v1/user/me',
    {
      schema: {
        body: {
          type: 'object',
          minProperties: 1,
          additionalProperties: false,
          properties: {
            displayName: { type: 'string', minLength: 1, maxLength: 256 },
            username: { type: 'string', minLength: 1, maxLength: 64 },
          },
        },
      },
    },
    async (request) => {
      const { displayName, username } = request.body;
      const owner = request.auth;
      const changes = {
        display_name: displayName === undefined ? null : normalizeDisplayName(displayName),
        username: username === undefined ? null : normalizeUsername(username),
      };
      try {
        await app.db.query(
          'update users set display_name = coalesce($3, display_name), username = coalesce($4, username) where id = $1 and tenant = $2',
          [owner.userId, owner.tenant, changes.display_name, changes.username],
        );
      } catch (error) {
        if ((error as { code?: string }).code === '23505')
          throw new ApiError(
            409,
            'This username is taken. Choose another one.',
            'USERNAME_TAKEN',
            'username',
          );
        throw error;
      }
      return readUser(app.db, owner);
    },
  );

  app.delete<{ Body: { password: string } }>(
    '/api/v1/user/me',
    {
      schema: {
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: { password: { type: 'string', minLength: 1, maxLength: 128 } },
        },
      },
    },
    async (request) => {
      if (!(await app.checkAccountPassword(request, request.body.password))) {
        // Whoever tries to delete an account without its password loses the session: the UI goes to welcome.
        await app.sessions.revoke(request.auth.sessionId);
        throw new ApiError(
          401,
          'Wrong password. You have been logged out for safety.',
          'WRONG_PASSWORD',
          'password',
        );
      }
      // The organization's last owner cannot leave it.
      const { rows: owners } = await app.db.query<{ role: string; others: string }>(
        `select role, (select count(*) from users o where o.tenant = u.tenant and o.role = 'owner'
                         and o.status = 'active' and o.id <> u.id) as others
         from users u where u.id = $1 and u.tenant = $2`,
        [request.auth.userId, request.auth.tenant],
      );
      if (owners[0]?.role === 'owner' && Number(owners[0].others) === 0) {
        throw new ApiError(
          409,
          'You are the last owner of this organization: make another member owner before you leave.',
          'LAST_OWNER',
        );
      }
      // Topics, messages, transactions, notifications and sessions go with the user (on delete cascade).
      await app.db.query('delete from users where id = $1 and tenant = $2', [
        request.auth.userId,
        request.auth.tenant,
      ]);
      await app.sessions.revokeAll(request.auth);
      return { success: true };
    },
  );

  app.get('/api/v1/user/me/export', async (request, reply) => {
    const data = await exportUser(app.db, request.auth);
    return reply
      .header('content-disposition', `attachment; filename="parley-${data.account.username}.json"`)
      .header('cache-control', 'no-store')
      .send(data);
  });

  app.get<{ Params: { userId: string } }>(
    '/payment/billing-info/:userId',
    { schema: { params: { type: 'object', properties: { userId: { type: 'string', maxLength: 64 } } } } },
    async (request) => {
      if (request.params.userId !== request.auth.userId) {
        throw new ApiError(403, 'You can only see your own billing information.', 'FORBIDDEN');
      }
      const { rows } = await app.db.query<{ balance: string; reserved: string; currency: string }>(
        'select balance, reserved, currency from users where id = $1 and tenant = $2',
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
        reserved: Number(rows[0].reserved),
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
