import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { canRun } from './availability';
import { type CatalogueBot, listedFor, readCatalogue } from './store';

const botSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    '_id',
    'name',
    'description',
    'active',
    'categories',
    'platform',
    'price',
    'vision',
    'models',
    'userParameters',
  ],
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
    userParameters: {
      type: 'boolean',
      description: 'members may set a conversation’s temperature and reply length',
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
    starters: { type: 'array', items: { type: 'string' }, description: 'a member’s bot’s starter prompts' },
    webSearch: { type: 'boolean', description: 'true when web_search is among its tools' },
    owner: {
      type: 'object',
      description: 'who made it, for a member’s own bot',
      additionalProperties: false,
      required: ['_id', 'name'],
      properties: { _id: { type: 'string' }, name: { type: 'string' } },
    },
  },
} as const;

/**
 * `GET /api/v1/bot`: the organization's bots with their categories and platform, those the user may
 * use (server/access/groups.ts `mayUseBot`: groups, members' bots' visibility), with who made a
 * member's bot. The groups never leave the server.
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
      const [bots, listed] = await Promise.all([catalogue(request.tenant), listedFor(app.db, request.auth)]);
      return bots.filter((bot) => listed.has(bot._id));
    },
  );
};
