import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { cleanName, idParams, objectOf, successResponse, uniqueViolation } from '../../schemas';
import { deleteCategory, insertCategory, listCategories, readCategory, renameCategory } from './store';

const nameBody = objectOf({ name: { type: 'string', minLength: 1, maxLength: 80 } }, ['name']);
const categorySchema = objectOf(
  { _id: { type: 'string' }, name: { type: 'string' }, bots: { type: 'integer' } },
  ['_id', 'name', 'bots'],
);
const nameTaken = () => new ApiError(409, 'A category with this name exists already.', 'NAME_TAKEN', 'name');

/** Categories: list (with how many bots each has), create, rename, delete (its bots keep working). */
export const categoriesAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get(
    '/category',
    { schema: { response: { 200: { type: 'array', items: categorySchema } } } },
    (request) => listCategories(app.db, request.tenant),
  );

  app.post(
    '/category',
    { schema: { body: nameBody, response: { 201: categorySchema } } },
    async (request, reply) => {
      const name = cleanName(request.body.name);
      const category = await app.db
        .transaction(async (tx) => {
          const id = await insertCategory(tx, request.tenant, name);
          await audit(tx, request, { action: 'category.create', target: id, before: null, after: { name } });
          return readCategory(tx, request.tenant, id);
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      await app.botCatalogue.forget(request.tenant);
      return reply.code(201).send(category);
    },
  );

  app.patch(
    '/category/:id',
    { schema: { params: idParams, body: nameBody, response: { 200: categorySchema } } },
    async (request) => {
      const name = cleanName(request.body.name);
      const before = await readCategory(app.db, request.tenant, request.params.id);
      const category = await app.db
        .transaction(async (tx) => {
          await renameCategory(tx, request.tenant, before._id, name);
          await audit(tx, request, {
            action: 'category.rename',
            target: before._id,
            before: { name: before.name },
            after: { name },
          });
          return readCategory(tx, request.tenant, before._id);
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      await app.botCatalogue.forget(request.tenant);
      return category;
    },
  );

  app.delete(
    '/category/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      const before = await readCategory(app.db, request.tenant, request.params.id);
      await app.db.transaction(async (tx) => {
        await deleteCategory(tx, request.tenant, before._id);
        await audit(tx, request, {
          action: 'category.delete',
          target: before._id,
          before: { name: before.name },
          after: null,
        });
      });
      await app.botCatalogue.forget(request.tenant);
      return { success: true };
    },
  );
};
