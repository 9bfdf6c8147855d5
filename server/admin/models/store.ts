import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { type CatalogueModel, type ModelRow, modelColumns, toCatalogueModel } from '../../models/store';

/** A catalogue model as the admins edit it: where it runs too (`provider` null: the server's own). */
export interface AdminModel extends CatalogueModel {
  provider: string | null;
  model: string;
}

const toAdminModel = (row: ModelRow): AdminModel => ({
  ...toCatalogueModel(row),
  provider: row.provider,
  model: row.model,
});

export const modelNotFound = () => new ApiError(404, 'Model not found', 'NOT_FOUND');

/** The organization's models by name. */
export async function listModels(db: Db, tenant: string): Promise<AdminModel[]> {
  const { rows } = await db.query<ModelRow>(
    `select ${modelColumns} from models m where m.tenant = $1 order by lower(m.name), m.id`,
    [tenant],
  );
  return rows.map(toAdminModel);
}

/** The organization's model; 404 for anyone else's or none. */
export async function readModel(db: Db, tenant: string, id: string): Promise<AdminModel> {
  const { rows } = await db.query<ModelRow>(
    `select ${modelColumns} from models m where m.id = $1 and m.tenant = $2`,
    [id, tenant],
  );
  if (!rows[0]) throw modelNotFound();
  return toAdminModel(rows[0]);
}

/** Whether `provider` is one of the organization's providers (null, the server's own, always is). */
export async function checkProvider(db: Db, tenant: string, provider: string | null) {
  if (provider === null) return;
  const { rows } = await db.query('select 1 from providers where id = $1 and tenant = $2', [
    provider,
    tenant,
  ]);
  if (!rows.length) throw new ApiError(404, 'Provider not found', 'NOT_FOUND', 'provider');
}

/** What a model's row holds. */
export interface ModelWrite {
  name: string;
  provider: string | null;
  model: string;
  price: number;
  inputPrice: number | null;
  outputPrice: number | null;
  vision: boolean;
  contextTokens: number;
  memberBots: boolean;
}

const values = (model: ModelWrite) => [
  model.name,
  model.provider,
  model.model,
  model.price,
  model.inputPrice,
  model.outputPrice,
  model.vision,
  model.contextTokens,
  model.memberBots,
];

/** Adds a model (a taken name is the unique violation it throws); answers its id. */
export async function insertModel(db: Db, tenant: string, model: ModelWrite): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into models (tenant, name, provider, model, price, input_price, output_price, vision, context_tokens, member_bots)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
    [tenant, ...values(model)],
  );
  return rows[0].id;
}

export async function updateModel(db: Db, tenant: string, id: string, model: ModelWrite) {
  await db.query(
    `update models set name = $3, provider = $4, model = $5, price = $6, input_price = $7, output_price = $8,
       vision = $9, context_tokens = $10, member_bots = $11
     where id = $1 and tenant = $2`,
    [id, tenant, ...values(model)],
  );
}

/** The names of the bots (the organization's and its members') that offer the model. */
export async function botsUsingModel(db: Db, tenant: string, id: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select b.name from bot_models bm join bots b on b.id = bm.bot_id
     where bm.model_id = $1 and b.tenant = $2 order by b.name`,
    [id, tenant],
  );
  return rows.map((row) => row.name);
}

export async function deleteModel(db: Db, tenant: string, id: string) {
  await db.query('delete from models where id = $1 and tenant = $2', [id, tenant]);
}

/** The names of the organization's models that run on the provider. */
export async function modelsOnProvider(db: Db, tenant: string, provider: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'select name from models where tenant = $1 and provider = $2 order by lower(name)',
    [tenant, provider],
  );
  return rows.map((row) => row.name);
}

/** The models' ids when all are the organization's, each once, in the order given; 404 naming the field otherwise. */
export async function checkModels(db: Db, tenant: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const { rows } = await db.query<{ id: string }>(
    'select id from models where tenant = $1 and id = any($2::text[])',
    [tenant, unique],
  );
  if (rows.length !== unique.length) throw new ApiError(404, 'Model not found', 'NOT_FOUND', 'models');
  return unique;
}

/** The bot offers these (checked) models, the first its default, and no other. */
export async function setBotModels(db: Db, botId: string, models: string[]) {
  await db.query('delete from bot_models where bot_id = $1', [botId]);
  if (models.length)
    await db.query(
      `insert into bot_models (bot_id, model_id, position)
       select $1, model.id, model.position - 1 from unnest($2::text[]) with ordinality as model (id, position)`,
      [botId, models],
    );
}
