import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ApiError } from '../errors';
import { cleanName, idParams, objectOf, successResponse } from '../schemas';
import {
  changeProject,
  createProject,
  deleteProject,
  listProjects,
  type ProjectInput,
  projectChoices,
  readProject,
} from './store';

const ref = objectOf({ _id: { type: 'string' }, name: { type: 'string' } }, ['_id', 'name']);

const projectSchema = objectOf(
  {
    _id: { type: 'string' },
    name: { type: 'string' },
    instructions: { type: 'string' },
    bot: { type: ['string', 'null'], description: 'the default bot’s id' },
    files: {
      type: 'array',
      items: objectOf(
        {
          _id: { type: 'string' },
          name: { type: 'string' },
          type: { type: 'string' },
          size: { type: 'number' },
        },
        ['_id', 'name', 'type', 'size'],
      ),
    },
    knowledgeBases: { type: 'array', items: { type: 'string' }, description: 'ids' },
    groups: { type: 'array', items: { type: 'string' }, description: 'ids of the groups it is shared with' },
    owner: ref,
    shared: { type: 'boolean', description: 'the reader is not its owner' },
  },
  ['_id', 'name', 'instructions', 'bot', 'files', 'knowledgeBases', 'groups', 'owner', 'shared'],
);

const ids = (maxItems: number) =>
  ({ type: 'array', maxItems, items: { type: 'string', minLength: 1, maxLength: 64 } }) as const;
const fields = {
  // RSA-encrypted on the wire like every top-level `name`: decrypted before validation.
  name: { type: 'string', maxLength: 1000 },
  instructions: { type: 'string', maxLength: 8000 },
  bot: { type: ['string', 'null'], minLength: 1, maxLength: 64 },
  files: ids(20),
  knowledgeBases: ids(20),
  groups: ids(50),
} as const;

/** The input as stored: the name cleaned (1–200 characters), the instructions trimmed. */
const cleaned = <T extends ProjectInput>(body: T): T => ({
  ...body,
  ...(body.name === undefined ? {} : { name: cleanName(body.name, 'name', 200) }),
  ...(body.instructions === undefined ? {} : { instructions: body.instructions.trim() }),
});

/**
 * Projects: a member's own, with instructions, files, knowledge bases and a default bot, shared with
 * groups of the organization. Their readers (owner and the groups' members) list and read them; only
 * the owner changes or deletes one (others who read it: 403; anyone else: 404).
 */
export const projectsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/api/v1/project',
    { schema: { response: { 200: { type: 'array', items: projectSchema } } } },
    (request) => listProjects(app.db, request.auth),
  );

  app.post(
    '/api/v1/project',
    { schema: { body: objectOf(fields, ['name']), response: { 201: projectSchema } } },
    async (request, reply) => {
      const body = cleaned(request.body);
      return reply.code(201).send(await createProject(app.db, request.auth, body));
    },
  );

  app.get(
    '/api/v1/project/choices',
    {
      schema: {
        response: {
          200: objectOf(
            { groups: { type: 'array', items: ref }, knowledgeBases: { type: 'array', items: ref } },
            ['groups', 'knowledgeBases'],
          ),
        },
      },
    },
    (request) => projectChoices(app.db, request.auth),
  );

  app.get(
    '/api/v1/project/:id',
    { schema: { params: idParams, response: { 200: projectSchema } } },
    (request) => readProject(app.db, request.auth, request.params.id),
  );

  app.patch(
    '/api/v1/project/:id',
    {
      schema: { params: idParams, body: objectOf(fields, [], 1), response: { 200: projectSchema } },
    },
    (request) => changeProject(app.db, request.auth, request.params.id, cleaned(request.body)),
  );

  app.delete(
    '/api/v1/project/:id',
    {
      schema: {
        params: idParams,
        querystring: objectOf({ conversations: { type: 'string', enum: ['delete', 'keep'] } }),
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const { conversations } = request.query;
      if (!conversations)
        throw new ApiError(
          400,
          'Choose what happens to the project’s conversations: deleted with it, or moved out of it.',
          'INVALID_INPUT',
          'conversations',
        );
      await deleteProject(app.db, request.auth, request.params.id, conversations);
      return { success: true };
    },
  );
};
