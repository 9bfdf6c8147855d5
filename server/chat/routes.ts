import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { canRun } from '../bots/availability';
import { ApiError } from '../errors';
import { successResponse } from '../schemas';
import { exportFileName, topicMarkdown } from './export';
import { changedTopicSchema, topicListSchema, topicSchema } from './schemas';
import {
  arrangeTopic,
  createTopic,
  deleteTopic,
  listTopics,
  pageTopics,
  readTopic,
  renameTopic,
  searchTopics,
  switchBranch,
  tuneTopic,
} from './topics';

// Path parameters are always there (an empty id is a conversation that does not exist: 404).
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 64 } },
} as const;

/**
 * Topics: list, search, create, read with their message tree, rename, switch branch, move into or out
 * of a project, pin, archive, choose the model and parameters of its replies, export, delete.
 */
export const chatPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const owner = (request: { auth: { userId: string; tenant: string } }) => ({
    tenant: request.auth.tenant,
    userId: request.auth.userId,
  });

  app.addHook('preHandler', app.authenticate);

  // The original call answers an array; with `cursor` or `q` (even empty) it answers `{ items, next }`.
  // `project` narrows any of them to one project's; lists leave archived topics out (`archived=true`:
  // only those), a search finds them too.
  app.get(
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
            project: { type: 'string', maxLength: 64 },
            archived: { type: 'string', enum: ['true', 'false'] },
          },
        },
        response: { 200: topicListSchema },
      },
    },
    async (request) => {
      const { q, cursor, project, archived } = request.query;
      const limit = Number(request.query.limit ?? 30);
      const given = archived === undefined ? undefined : archived === 'true';
      const filter = { ...(project === undefined ? {} : { project }), archived: given ?? false };
      if (q?.trim())
        return searchTopics(app.db, owner(request), {
          q,
          cursor: cursor ?? '',
          limit,
          filter: { ...filter, archived: given },
        });
      if (q !== undefined || cursor !== undefined)
        return pageTopics(app.db, owner(request), { cursor: cursor ?? '', limit, filter });
      return listTopics(app.db, owner(request), filter);
    },
  );

  app.post(
    '/api/v1/topic',
    {
      schema: {
        body: {
          type: 'object',
          required: ['bot'],
          additionalProperties: false,
          properties: {
            bot: { type: 'string', minLength: 1, maxLength: 64 },
            project: { type: 'string', minLength: 1, maxLength: 64 },
          },
        },
        response: { 201: topicSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createTopic(app.db, owner(request), request.body, (bot) => canRun(app.config, bot))),
  );

  app.get(
    '/api/v1/topic/:id',
    { schema: { params: idParams, response: { 200: topicSchema } } },
    async (request) => readTopic(app.db, owner(request), request.params.id),
  );

  app.get(
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

  app.patch(
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
            project: { type: ['string', 'null'], minLength: 1, maxLength: 64 },
            pinned: { type: 'boolean' },
            archived: { type: 'boolean' },
            model: { type: ['string', 'null'], minLength: 1, maxLength: 64 },
            parameters: {
              type: ['object', 'null'],
              additionalProperties: false,
              properties: {
                temperature: { type: 'number', minimum: 0, maximum: 2 },
                maxTokens: { type: 'integer', minimum: 1, maximum: 10_000_000 },
              },
            },
          },
        },
        response: { 200: changedTopicSchema },
      },
    },
    async (request) => {
      const { head, title, project, pinned, archived, model, parameters } = request.body;
      // Checked before anything changes: a bad title leaves the topic as it was.
      const cleaned = title?.replace(/\s+/g, ' ').trim();
      if (cleaned === '') throw new ApiError(400, 'Please fill in title.', 'INVALID_INPUT', 'title');
      if (project !== undefined || pinned !== undefined || archived !== undefined)
        await arrangeTopic(app.db, owner(request), request.params.id, { project, pinned, archived });
      if (model !== undefined || parameters !== undefined)
        await tuneTopic(app.db, owner(request), request.params.id, { model, parameters });
      if (head !== undefined) await switchBranch(app.db, owner(request), request.params.id, head);
      if (cleaned === undefined) return readTopic(app.db, owner(request), request.params.id);
      return renameTopic(app.db, owner(request), request.params.id, cleaned);
    },
  );

  app.delete(
    '/api/v1/topic/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      await deleteTopic(app.db, owner(request), request.params.id);
      return { success: true };
    },
  );
};
