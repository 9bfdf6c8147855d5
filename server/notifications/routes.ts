import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { notFound } from '../errors';
import { idParams } from '../schemas';
import { listNotifications, markRead } from './store';

const notificationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'title', 'body', 'read', 'createdAt'],
  properties: {
    _id: { type: 'string' },
    title: { type: 'string' },
    body: { type: 'string' },
    read: { type: 'boolean' },
    createdAt: { type: 'string' },
  },
} as const;

/** The user's notifications: list, and mark one read. */
export const notificationsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/api/v1/notification',
    { schema: { response: { 200: { type: 'array', items: notificationSchema } } } },
    (request) => listNotifications(app.db, request.auth),
  );

  app.patch(
    '/api/v1/notification/:id',
    {
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['read'],
          additionalProperties: false,
          properties: { read: { type: 'boolean' } },
        },
        response: { 200: notificationSchema },
      },
    },
    async (request) => {
      const changed = await markRead(app.db, request.auth, request.params.id, request.body.read);
      if (!changed) throw notFound('Notification');
      return changed;
    },
  );
};
