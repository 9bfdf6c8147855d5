import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { objectOf } from '../schemas';
import { modelsForMember } from './store';

const price = { type: 'number', description: 'in the organization’s currency' } as const;
/** A model as members see it (not where it runs: the provider and its name for it stay the admins'). */
export const memberModelSchema = objectOf(
  {
    _id: { type: 'string' },
    name: { type: 'string' },
    price: { ...price, description: 'of one reply' },
    inputPrice: { ...price, description: 'per million tokens read, on top of the reply’s price' },
    outputPrice: { ...price, description: 'per million tokens written, on top of the reply’s price' },
    vision: { type: 'boolean', description: 'whether it can be sent images' },
    contextTokens: { type: 'integer', description: 'how much it reads, in tokens' },
    memberBots: { type: 'boolean', description: 'members may build their own bots on it' },
  },
  ['_id', 'name', 'price', 'vision', 'contextTokens', 'memberBots'],
);

/**
 * `GET /api/v1/model`: the models the member may use — those of the bots they may use (group rules
 * apply), and those open to members' bots while the organization lets members make bots.
 */
export const modelsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get(
    '/api/v1/model',
    {
      preHandler: app.authenticate,
      schema: { response: { 200: { type: 'array', items: memberModelSchema } } },
    },
    (request) => modelsForMember(app.db, request.auth),
  );
};
