import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyRequest } from 'fastify';
import { canRun } from '../bots/availability';
import { botRefSchema, topicSchema } from '../chat/schemas';
import { successResponse, idParams as topicParams } from '../schemas';
import { continueShare, listShares, readShare, revokeShare, shareTopic } from './store';

/** Share ids are base64url; anything else cannot be one and is refused before a query. */
const shareParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' } },
} as const;

const audience = {
  type: 'string',
  enum: ['organization', 'public'],
  description: 'organization: signed-in members of the organization; public: anyone with the link',
} as const;

const shareSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'url', 'audience', 'topic', 'title', 'messages', 'sharedAt'],
  properties: {
    _id: { type: 'string' },
    url: { type: 'string', description: '/s/<id>, on the host of the organization' },
    audience,
    topic: { type: 'string' },
    title: { type: 'string' },
    messages: { type: 'integer', description: 'how many messages the snapshot holds' },
    sharedAt: { type: 'string' },
  },
} as const;

const snapshotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'title', 'bot', 'messages', 'sharedAt', 'audience'],
  properties: {
    _id: { type: 'string' },
    title: { type: 'string' },
    bot: botRefSchema,
    messages: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'text', 'createdAt'],
        properties: {
          role: { type: 'string', enum: ['user', 'bot'] },
          text: { type: 'string' },
          createdAt: { type: 'string' },
        },
      },
    },
    sharedAt: { type: 'string' },
    audience,
  },
} as const;

/**
 * Shared conversations: share a topic (a snapshot of the branch on screen), list and revoke one's
 * shares, read a share (public ones logged out too), and continue one as a new topic of one's own.
 */
export const sharesPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const owner = (request: FastifyRequest) => ({ tenant: request.auth.tenant, userId: request.auth.userId });

  app.post(
    '/api/v1/topic/:id/share',
    {
      preHandler: app.authenticate,
      schema: {
        params: topicParams,
        body: {
          type: 'object',
          required: ['audience'],
          additionalProperties: false,
          properties: {
            audience,
            leaf: {
              type: 'string',
              minLength: 1,
              maxLength: 64,
              description: 'the last message of the branch to share; by default the one on screen (head)',
            },
          },
        },
        response: { 200: shareSchema },
      },
    },
    async (request) =>
      shareTopic(app.db, owner(request), request.params.id, {
        audience: request.body.audience,
        leaf: request.body.leaf,
      }),
  );

  app.get(
    '/api/v1/share',
    {
      preHandler: app.authenticate,
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { topic: { type: 'string', minLength: 1, maxLength: 64 } },
        },
        response: { 200: { type: 'array', items: shareSchema } },
      },
    },
    async (request) => listShares(app.db, owner(request), request.query.topic),
  );

  // No login needed: a public share is for anyone; an organization share needs a member's token.
  app.get(
    '/api/v1/share/:id',
    { schema: { params: shareParams, response: { 200: snapshotSchema } } },
    async (request, reply) => {
      const member = Boolean(await app.sessions.claims(request));
      const snapshot = await readShare(app.db, request.tenant, request.params.id, member);
      reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');
      return snapshot;
    },
  );

  app.delete(
    '/api/v1/share/:id',
    {
      preHandler: app.authenticate,
      schema: {
        params: shareParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await revokeShare(app.db, owner(request), request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/api/v1/share/:id/continue',
    {
      preHandler: app.authenticate,
      schema: { params: shareParams, response: { 201: topicSchema } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await continueShare(app.db, owner(request), request.params.id, (bot) => canRun(app.config, bot)),
        ),
  );
};
