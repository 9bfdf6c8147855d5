import type { FastifyPluginAsync } from 'fastify';
import { audit } from '../../audit/store';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { cleanName, idParams, objectOf, uniqueViolation } from '../../schemas';

interface CategoryRow {
  id: string;
  name: string;
  bots: string;
}
const toCategory = (row: CategoryRow) => ({ _id: row.id, name: row.name, bots: Number(row.bots) });
const categoryQuery = `select c.id, c.name, (select count(*) from bot_categories bc where bc.category_id = c.id) as bots
  from categories c`;
const nameBody = objectOf({ name: { type: 'string', minLength: 1, maxLength: 80 } }, ['name']);
const nameTaken = () => new ApiError(409, 'A category with this name exists already.', 'NAME_TAKEN', 'name');
const categoryNotFound = () => new ApiError(404, 'Category not found', 'NOT_FOUND');

async function readCategory(db: Db, tenant: string, id: string) {
  const { rows } = await db.query<CategoryRow>(`${categoryQuery} where c.tenant = $1 and c.id = $2`, [
    tenant,
    id,
  ]);
  if (!rows[0]) throw categoryNotFound();
  return toCategory(rows[0]);
}

/** Categories: list (with how many bots each has), create, rename, delete (its bots keep working). */
export const categoriesAdminPlugin: FastifyPluginAsync = async (app) => {
  app.get('/category', async (request) => {
    const { rows } = await app.db.query<CategoryRow>(
      `${categoryQuery} where c.tenant = $1 order by lower(c.name), c.id`,
      [request.tenant],
    );
    return rows.map(toCategory);
  });

  app.post<{ Body: { name: string } }>(
    '/category',
    { schema: { body: nameBody } },
    async (request, reply) => {
      const name = cleanName(request.body.name);
      const category = await app.db
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ id: string }>(
            'insert into categories (tenant, name) values ($1, $2) returning id',
            [request.tenant, name],
          );
          await audit(tx, request, {
            action: 'category.create',
            target: rows[0].id,
            before: null,
            after: { name },
          });
          return readCategory(tx, request.tenant, rows[0].id);
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      await app.botCatalogue.forget(request.tenant);
      return reply.code(201).send(category);
    },
  );

  app.patch<{ Params: { id: string }; Body: { name: string } }>(
    '/category/:id',
    { schema: { params: idParams, body: nameBody } },
    async (request) => {
      const name = cleanName(request.body.name);
      const before = await readCategory(app.db, request.tenant, request.params.id);
      const category = await app.db
        .transaction(async (tx) => {
          await tx.query('update categories set name = $3 where id = $1 and tenant = $2', [
            before._id,
            request.tenant,
            name,
          ]);
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

  app.delete<{ Params: { id: string } }>(
    '/category/:id',
    { schema: { params: idParams } },
    async (request) => {
      const before = await readCategory(app.db, request.tenant, request.params.id);
      // Its bots lose the category and nothing else (bot_categories goes with it).
      await app.db.transaction(async (tx) => {
        await tx.query('delete from categories where id = $1 and tenant = $2', [before._id, request.tenant]);
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
