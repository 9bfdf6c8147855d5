import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { memberModelSchema } from '../../models/routes';
import { cleanName, idParams, objectOf, successResponse, uniqueViolation } from '../../schemas';
import {
  type AdminModel,
  botsUsingModel,
  checkProvider,
  deleteModel,
  insertModel,
  listModels,
  type ModelWrite,
  readModel,
  updateModel,
} from './store';

const price = { type: 'number', minimum: 0, maximum: 1_000_000 } as const;
const modelFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  provider: { type: ['string', 'null'], minLength: 1, maxLength: 64 },
  model: { type: 'string', minLength: 1, maxLength: 200 },
  price,
  inputPrice: { ...price, type: ['number', 'null'] },
  outputPrice: { ...price, type: ['number', 'null'] },
  vision: { type: 'boolean' },
  contextTokens: { type: 'integer', minimum: 256, maximum: 10_000_000 },
  memberBots: { type: 'boolean' },
} as const;
/** A model as members see it, and where it runs. */
const modelSchema = objectOf(
  {
    ...memberModelSchema.properties,
    provider: { type: ['string', 'null'], description: 'an organization provider; null: the server’s own' },
    model: { type: 'string', description: 'the provider’s name for it' },
  },
  [...memberModelSchema.required, 'provider', 'model'],
);
const nameTaken = () => new ApiError(409, 'A model with this name exists already.', 'NAME_TAKEN', 'name');
const inUse = (bots: string[]) =>
  new ApiError(
    409,
    bots.length
      ? `Bots offer this model: ${bots.join(', ')}. Take it from them first.`
      : 'A bot offers this model. Take it from the bot first.',
    'MODEL_IN_USE',
  );

/** A model's fields as stored, from the form (over what is stored already, for a change). */
function written(input: Partial<ModelWrite>, before?: AdminModel): ModelWrite {
  const model = (input.model ?? before?.model ?? '').trim();
  if (!model) throw new ApiError(400, 'Please fill in model.', 'INVALID_INPUT', 'model');
  const kept = (field: 'inputPrice' | 'outputPrice') =>
    input[field] === undefined ? (before?.[field] ?? null) : input[field];
  return {
    name: input.name === undefined ? (before?.name ?? '') : cleanName(input.name),
    provider: input.provider === undefined ? (before?.provider ?? null) : input.provider,
    model,
    price: input.price ?? before?.price ?? 0,
    inputPrice: kept('inputPrice'),
    outputPrice: kept('outputPrice'),
    vision: input.vision ?? before?.vision ?? false,
    contextTokens: input.contextTokens ?? before?.contextTokens ?? 8192,
    memberBots: input.memberBots ?? before?.memberBots ?? false,
  };
}

/** What the audit log keeps of a model: every field the form shows. */
const snapshot = ({ _id, ...model }: AdminModel) => model;

/**
 * The organization's model catalogue: list, add, change, remove (refused while a bot offers the
 * model). A model runs on one of the organization's providers or on the server's own (`provider`
 * null); its price is per reply and, optionally, per million input and output tokens. Every write is
 * audited and forgets `GET /api/v1/bot`'s list (its bots show their models).
 */
export const modelsAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get('/model', { schema: { response: { 200: { type: 'array', items: modelSchema } } } }, (request) =>
    listModels(app.db, request.tenant),
  );

  app.post(
    '/model',
    {
      schema: {
        body: objectOf(modelFields, ['name', 'model', 'price']),
        response: { 201: modelSchema },
      },
    },
    async (request, reply) => {
      const { tenant } = request;
      const model = written(request.body);
      await checkProvider(app.db, tenant, model.provider);
      const id = await app.db
        .transaction(async (tx) => {
          const id = await insertModel(tx, tenant, model);
          const after = await readModel(tx, tenant, id);
          await audit(tx, request, {
            action: 'model.create',
            target: id,
            before: null,
            after: snapshot(after),
          });
          return id;
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      return reply.code(201).send(await readModel(app.db, tenant, id));
    },
  );

  app.patch(
    '/model/:id',
    { schema: { params: idParams, body: objectOf(modelFields, [], 1), response: { 200: modelSchema } } },
    async (request) => {
      const { tenant } = request;
      const before = await readModel(app.db, tenant, request.params.id);
      const model = written(request.body, before);
      if (request.body.provider !== undefined) await checkProvider(app.db, tenant, model.provider);
      await app.db
        .transaction(async (tx) => {
          await updateModel(tx, tenant, before._id, model);
          const after = await readModel(tx, tenant, before._id);
          await audit(tx, request, {
            action: 'model.update',
            target: before._id,
            before: snapshot(before),
            after: snapshot(after),
          });
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      await app.botCatalogue.forget(tenant);
      return readModel(app.db, tenant, before._id);
    },
  );

  app.delete(
    '/model/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      const { tenant } = request;
      const before = await readModel(app.db, tenant, request.params.id);
      await app.db
        .transaction(async (tx) => {
          const using = await botsUsingModel(tx, tenant, before._id);
          if (using.length) throw inUse(using);
          await deleteModel(tx, tenant, before._id);
          await audit(tx, request, {
            action: 'model.delete',
            target: before._id,
            before: snapshot(before),
            after: null,
          });
        })
        .catch((error) => {
          // A bot given the model meanwhile: the foreign key refuses.
          throw (error as { code?: string }).code === '23503' ? inUse([]) : error;
        });
      return { success: true };
    },
  );
};
