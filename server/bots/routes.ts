import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { groupsOfMember } from '../access/groups';
import { canRun } from './availability';
import { type CatalogueBot, readCatalogue } from './store';

const botSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'name', 'description', 'active', 'categories', 'platform', 'price', 'vision', 'models'],
  properties: {
    _id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    active: { type: 'boolean' },
    categories: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['_id', 'name'],
        properties: { _id: { type: 'string' }, name: { type: 'string' } },
      },
    },
    platform: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string' } },
    },
    price: { type: 'number', description: 'of one reply, in the organization’s currency' },
    vision: { type: 'boolean', description: 'whether the bot can be sent images' },
    models: {
      type: 'array',
      description: 'the catalogue models it offers, its default first',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['_id', 'name'],
        properties: { _id: { type: 'string' }, name: { type: 'string' } },
      },
    },
  },
} as const;

/**
 * `GET /api/v1/bot`: the organization's bots with their categories and platform, those the user may
 * use: bots limited to groups only for those groups' members. The groups never leave the server.
 */
export const botsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  async function catalogue(tenant: string): Promise<CatalogueBot[]> {
    // Kept per organization briefly; an admin's edit forgets it on every node (./catalogue.ts).
    const cached = app.botCatalogue.get(tenant);
    if (cached) return cached as CatalogueBot[];
    const bots = await readCatalogue(app.db, tenant, (bot) => canRun(app.config, bot));
    app.botCatalogue.set(tenant, bots);
    return bots;
  }

  app.get(
    '/api/v1/bot',
    { preHandler: app.authenticate, schema: { response: { 200: { type: 'array', items: botSchema } } } },
    async (request) => {
      const [bots, mine] = await Promise.all([
        catalogue(request.tenant),
        groupsOfMember(app.db, request.tenant, request.auth.userId),
      ]);
      return bots
        .filter((bot) => !bot.groups.length || bot.groups.some((group) => mine.includes(group)))
        .map(({ groups: _limited, ...bot }) => bot);
    },
  );
};
