import type { FastifyPluginAsync } from 'fastify';
import { canRun } from '../bots/availability';
import { ApiError } from '../errors';
import { exportFileName, topicMarkdown } from './export';
import {
  createTopic,
  deleteTopic,
  listTopics,
  pageTopics,
  readTopic,
  renameTopic,
  searchTopics,
  switchBranch,
} from './topics';

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } } as const;

/** Topics: list, search, create, read with their message tree, rename, switch branch, export, delete. */
export const chatPlugin: FastifyPluginAsync = async (app) => {
  const owner = (request: { auth: { userId: string; tenant: string } }) => ({
    tenant: request.auth.tenant,
    userId: request.auth.userId,
  });

  app.addHook('preHandler', app.authenticate);

  // The original call answers an array; with `cursor` or `q` (even empty) it answers `{ items, next }`.
  app.get<{ Querystring: { q?: string; cursor?: string; limit?: string } }>(
    '/api/v1/topic',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            q: { type: 'string', maxLength: 200 },
            cursor: { type: 'string', maxLength: 200 },
            // 1 to 100; query values are strings (types are not coerced).
            limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$' },
          },
        },
      },
    },
    async (request) => {
      const { q, cursor } = request.query;
      const limit = Number(request.query.limit ?? 30);
      if (q?.trim()) return searchTopics(app.db, owner(request), { q, cursor: cursor ?? '', limit });
      if (q !== undefined || cursor !== undefined)
        return pageTopics(app.db, owner(request), { cursor: cursor ?? '', limit });
      return listTopics(app.db, owner(request));
    },
  );

  app.post<{ Body: { bot: string } }>(
    '/api/v1/topic',
    {
      schema: {
        body: {
          type: 'object',
          required: ['bot'],
          additionalProperties: false,
          properties: { bot: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createTopic(app.db, owner(request), request.body.bot, (bot) => canRun(app.config, bot))),
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/topic/:id',
    { schema: { params: idParams } },
    async (request) => readTopic(app.db, owner(request), request.params.id),
  );

  app.get<{ Params: { id: string }; Querystring: { format?: 'md' | 'json' } }>(
    '/api/v1/topic/:id/export',
    {
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { format: { type: 'string', enum: ['md', 'json'] } },
        },
      },
    },
    async (request, reply) => {
      const topic = await readTopic(app.db, owner(request), request.params.id);
      const format = request.query.format ?? 'md';
      reply
        .header('content-disposition', `attachment; filename="${exportFileName(topic, format)}"`)
        .header('cache-control', 'no-store');
      if (format === 'json') return reply.type('application/json; charset=utf-8').send(topic);
      return reply.type('text/markdown; charset=utf-8').send(topicMarkdown(topic));
    },
  );

  app.patch<{ Params: { id: string }; Body: { title?: string; head?: string } }>(
    '/api/v1/topic/:id',
    {
      schema: {
        params: idParams,
        body: {
          type: 'object',
          minProperties: 1,
          additionalProperties: false,
          properties: {
            title: { type: 'string', minLength: 1, maxLength: 200 },
            head: { type: 'string', minLength: 1, maxLength: 64 },
          },
        },
      },
    },
    async (request) => {
      const { head, title } = request.body;
      if (head !== undefined) await switchBranch(app.db, owner(request), request.params.id, head);
      if (title === undefined) return readTopic(app.db, owner(request), request.params.id);
      const cleaned = title.replace(/\s+/g, ' ').trim();
      if (!cleaned) throw new ApiError(400, 'Please fill in title.', 'INVALID_INPUT', 'title');
      return renameTopic(app.db, owner(request), request.params.id, cleaned);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/v1/topic/:id',
    { schema: { params: idParams } },
    async (request) => {
      await deleteTopic(app.db, owner(request), request.params.id);
      return { success: true };
    },
  );
};
