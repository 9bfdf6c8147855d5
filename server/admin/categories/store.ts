import type { Db } from '../../db/database';
import { ApiError } from '../../errors';

/** A category as the admin area lists it: with how many bots it holds. */
export interface Category {
  _id: string;
  name: string;
  bots: number;
}

interface CategoryRow {
  id: string;
  name: string;
  bots: string;
}
const toCategory = (row: CategoryRow): Category => ({ _id: row.id, name: row.name, bots: Number(row.bots) });
const categoryQuery = `select c.id, c.name, (select count(*) from bot_categories bc where bc.category_id = c.id) as bots
  from categories c`;
const categoryNotFound = () => new ApiError(404, 'Category not found', 'NOT_FOUND');

/** The organization's categories by name. */
export async function listCategories(db: Db, tenant: string): Promise<Category[]> {
  const { rows } = await db.query<CategoryRow>(
    `${categoryQuery} where c.tenant = $1 order by lower(c.name), c.id`,
    [tenant],
  );
  return rows.map(toCategory);
}

/** The organization's category; 404 for anyone else's or none. */
export async function readCategory(db: Db, tenant: string, id: string): Promise<Category> {
  const { rows } = await db.query<CategoryRow>(`${categoryQuery} where c.tenant = $1 and c.id = $2`, [
    tenant,
    id,
  ]);
  if (!rows[0]) throw categoryNotFound();
  return toCategory(rows[0]);
}

/** Adds a category; answers its id (a taken name is the unique violation it throws). */
export async function insertCategory(db: Db, tenant: string, name: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'insert into categories (tenant, name) values ($1, $2) returning id',
    [tenant, name],
  );
  return rows[0].id;
}

export async function renameCategory(db: Db, tenant: string, id: string, name: string) {
  await db.query('update categories set name = $3 where id = $1 and tenant = $2', [id, tenant, name]);
}

/** Deletes the category: its bots lose it and nothing else (bot_categories goes with it). */
export async function deleteCategory(db: Db, tenant: string, id: string) {
  await db.query('delete from categories where id = $1 and tenant = $2', [id, tenant]);
}
