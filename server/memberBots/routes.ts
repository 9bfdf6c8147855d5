import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { cleanName, idParams, objectOf, successResponse } from '../schemas';
import { changeMemberBot, createMemberBot, deleteMemberBot, listMemberBots, memberBotChoices } from './store';

const ids = (maxItems: number) =>
  ({ type: 'array', maxItems, items: { type: 'string', minLength: 1, maxLength: 64 } }) as const;
const visibility = { type: 'string', enum: ['private', 'groups', 'organization'] } as const;

const memberBotSchema = objectOf(
  {
    _id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    instructions: { type: 'string' },
    starters: { type: 'array', items: { type: 'string' } },
    model: { type: 'string', description: 'the catalogue model it runs on (id)' },
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
    tools: { type: 'array', items: { type: 'string' } },
    visibility,
    groups: { type: 'array', items: { type: 'string' }, description: 'ids, with visibility groups' },
    retired: { type: 'boolean', description: 'an administrator retired it: it answers no more' },
  },
  [
    '_id',
    'name',
    'description',
    'instructions',
    'starters',
    'model',
    'files',
    'tools',
    'visibility',
    'groups',
    'retired',
  ],
);

const fields = {
  // RSA-encrypted on the wire like every top-level `name`: decrypted before validation.
  name: { type: 'string', maxLength: 1000 },
  description: { type: 'string', maxLength: 1000 },
  instructions: { type: 'string', maxLength: 8000 },
  starters: { type: 'array', maxItems: 6, items: { type: 'string', maxLength: 300 } },
  model: { type: 'string', minLength: 1, maxLength: 64 },
  files: ids(20),
  tools: ids(50),
  visibility,
  groups: ids(50),
} as const;

/** The name as stored: cleaned, 1–80 characters like an admin's bot. */
const named = <T extends { name?: string }>(body: T): T =>
  body.name === undefined ? body : { ...body, name: cleanName(body.name) };

/**
 * A member's own bots (`/api/v1/user/me/bot`), while the organization allows them (`memberBots`;
 * else a create or change is 403 `MEMBER_BOTS_OFF`, and deleting still works). Another member's bot
 * is 404. Every write forgets `GET /api/v1/bot`'s list, where the bot shows to those it is for.
 */
export const memberBotsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/api/v1/user/me/bot',
    { schema: { response: { 200: { type: 'array', items: memberBotSchema } } } },
    (request) => listMemberBots(app.db, request.auth),
  );

  app.get(
    '/api/v1/user/me/bot/choices',
    {
      schema: {
        response: {
          200: objectOf(
            {
              tools: {
                type: 'array',
                items: objectOf({ name: { type: 'string' }, description: { type: 'string' } }, [
                  'name',
                  'description',
                ]),
              },
              groups: {
                type: 'array',
                items: objectOf({ _id: { type: 'string' }, name: { type: 'string' } }, ['_id', 'name']),
              },
            },
            ['tools', 'groups'],
          ),
        },
      },
    },
    (request) => memberBotChoices(app.db, request.auth),
  );

  app.post(
    '/api/v1/user/me/bot',
    {
      schema: {
        body: objectOf(fields, ['name', 'model', 'visibility']),
        response: { 201: memberBotSchema },
      },
    },
    async (request, reply) => {
      const bot = await createMemberBot(app.db, request.auth, named(request.body));
      await app.botCatalogue.forget(request.tenant);
      return reply.code(201).send(bot);
    },
  );

  app.patch(
    '/api/v1/user/me/bot/:id',
    { schema: { params: idParams, body: objectOf(fields, [], 1), response: { 200: memberBotSchema } } },
    async (request) => {
      const bot = await changeMemberBot(app.db, request.auth, request.params.id, named(request.body));
      await app.botCatalogue.forget(request.tenant);
      return bot;
    },
  );

  app.delete(
    '/api/v1/user/me/bot/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      await deleteMemberBot(app.db, request.auth, request.params.id);
      await app.botCatalogue.forget(request.tenant);
      return { success: true };
    },
  );
};
