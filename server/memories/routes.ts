import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { readableProject } from '../access/projects';
import { ApiError, notFound } from '../errors';
import { idParams, objectOf, successResponse } from '../schemas';
import { alreadyKept, embedLater, memoryText, saveMemory } from './recall';
import {
  changeMemory,
  deleteMemory,
  forgetAll,
  listMemories,
  memoryOffBy,
  readPersonalization,
  updatePersonalization,
} from './store';

/** The longest custom instructions. */
const instructionsMaxLength = 3000;

const personalizationSchema = objectOf({ text: { type: 'string' }, useMemory: { type: 'boolean' } }, [
  'text',
  'useMemory',
]);

const memorySchema = objectOf(
  {
    _id: { type: 'string' },
    text: { type: 'string' },
    project: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    source: { type: 'string', enum: ['member', 'model'] },
  },
  ['_id', 'text', 'project', 'createdAt', 'source'],
);

// Checked again after trimming (`memoryText`): this bounds what is read at all.
const memoryTextSchema = { type: 'string', minLength: 1, maxLength: 1000 } as const;

const memoryNotFound = () => notFound('Memory');

/**
 * Personalization: the member's custom instructions and "Use memory" switch, and their memories —
 * always their own; another member's (or organization's) is 404. While memory is off (the
 * organization's `memory` setting, or the member's switch) nothing is added; what is kept stays
 * listable, editable and deletable.
 */
export const memoriesPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/api/v1/user/me/instructions',
    { schema: { response: { 200: personalizationSchema } } },
    (request) => readPersonalization(app.db, request.auth),
  );

  app.put(
    '/api/v1/user/me/instructions',
    {
      schema: {
        body: objectOf(
          {
            text: { type: 'string', maxLength: instructionsMaxLength },
            useMemory: { type: 'boolean' },
          },
          [],
          1,
        ),
        response: { 200: personalizationSchema },
      },
    },
    (request) =>
      updatePersonalization(app.db, request.auth, {
        text: request.body.text === undefined ? null : request.body.text.trim(),
        useMemory: request.body.useMemory ?? null,
      }),
  );

  app.get(
    '/api/v1/memory',
    {
      schema: {
        querystring: objectOf({ project: { type: 'string', minLength: 1, maxLength: 64 } }),
        response: { 200: { type: 'array', items: memorySchema } },
      },
    },
    (request) => listMemories(app.db, request.auth, request.query.project),
  );

  app.post(
    '/api/v1/memory',
    {
      schema: {
        body: objectOf(
          {
            text: memoryTextSchema,
            project: { type: ['string', 'null'], minLength: 1, maxLength: 64 },
          },
          ['text'],
        ),
        response: { 201: memorySchema },
      },
    },
    async (request, reply) => {
      const owner = request.auth;
      const off = await memoryOffBy(app.db, owner);
      if (off)
        throw new ApiError(
          403,
          off === 'organization'
            ? 'Memory is turned off for your organization: nothing new is saved.'
            : 'Memory is turned off in your settings: turn on “Use memory” to save memories.',
          'MEMORY_OFF',
        );
      const project = request.body.project
        ? (await readableProject(app.db, owner, request.body.project)).id
        : null;
      const memory = await saveMemory(app, owner, { text: request.body.text, project, source: 'member' });
      return reply.code(201).send(memory);
    },
  );

  app.patch(
    '/api/v1/memory/:id',
    {
      schema: {
        params: idParams,
        body: objectOf({ text: memoryTextSchema }, ['text']),
        response: { 200: memorySchema },
      },
    },
    async (request) => {
      const changed = await changeMemory(
        app.db,
        request.auth,
        request.params.id,
        memoryText(request.body.text),
      );
      if (changed === 'exists') throw alreadyKept();
      if (!changed) throw memoryNotFound();
      embedLater(app, request.auth, changed);
      return changed;
    },
  );

  app.delete(
    '/api/v1/memory/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      if (!(await deleteMemory(app.db, request.auth, request.params.id))) throw memoryNotFound();
      return { success: true };
    },
  );

  app.delete(
    '/api/v1/memory',
    { schema: { response: { 200: objectOf({ deleted: { type: 'integer' } }, ['deleted']) } } },
    async (request) => ({ deleted: await forgetAll(app.db, request.auth) }),
  );
};
