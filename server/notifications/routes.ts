import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../errors';

interface Row {
  id: string;
  title: string;
  body: string;
  read: boolean;
  created_at: Date;
}
const toNotification = (row: Row) => ({
  _id: row.id,
  title: row.title,
  body: row.body,
  read: row.read,
  createdAt: new Date(row.created_at).toISOString(),
});

/** The user's notifications: list, and mark one read. */
export const notificationsPlugin: FastifyPluginAsync = async (app) => {
  app.get('/api/v1/notification', { preHandler: app.authenticate }, async (request) => {
    const { rows } = await app.db.query<Row>(
      'select id, title, body, read, created_at from notifications where user_id = $1 and tenant = $2 order by created_at desc limit 100',
      [request.auth.userId, request.tenant],
    );
    return rows.map(toNotification);
  });

  app.patch<{ Params: { id: string }; Body: { read: boolean } }>(
    '/api/v1/notification/:id',
    {
      preHandler: app.authenticate,
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } },
        body: {
          type: 'object',
          required: ['read'],
          additionalProperties: false,
          properties: { read: { type: 'boolean' } },
        },
      },
    },
    async (request) => {
      const { rows } = await app.db.query<Row>(
        'update notifications set read = $4 where id = $1 and user_id = $2 and tenant = $3 returning id, title, body, read, created_at',
        [request.params.id, request.auth.userId, request.tenant, request.body.read],
      );
      if (!rows[0]) throw notFound('Notification');
      return toNotification(rows[0]);
    },
  );
};
