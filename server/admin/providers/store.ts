import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { type ProviderRow, providerColumns, toProvider } from '../../providers/store';

export type Provider = ReturnType<typeof toProvider>;

export const providerNotFound = () => new ApiError(404, 'Provider not found', 'NOT_FOUND');

/** The organization's providers by name, keys masked. */
export async function listProviders(db: Db, tenant: string): Promise<Provider[]> {
  const { rows } = await db.query<ProviderRow>(
    `select ${providerColumns} from providers p where p.tenant = $1 order by lower(p.name), p.id`,
    [tenant],
  );
  return rows.map(toProvider);
}

/** The organization's provider, its key masked; 404 for anyone else's or none. */
export async function readProvider(db: Db, tenant: string, id: string): Promise<Provider> {
  const { rows } = await db.query<ProviderRow>(
    `select ${providerColumns} from providers p where p.id = $1 and p.tenant = $2`,
    [id, tenant],
  );
  if (!rows[0]) throw providerNotFound();
  return toProvider(rows[0]);
}

/** A provider as stored: its key sealed already (or null: none) and the key's hint. */
export interface ProviderInput {
  name: string;
  baseUrl: string;
  sealedKey: string | null;
  keyHint: string;
}

/** Adds a provider (a taken name is the unique violation it throws); answers its id. */
export async function insertProvider(db: Db, tenant: string, provider: ProviderInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'insert into providers (tenant, name, base_url, api_key, key_hint) values ($1, $2, $3, $4, $5) returning id',
    [tenant, provider.name, provider.baseUrl, provider.sealedKey, provider.keyHint],
  );
  return rows[0].id;
}

/** Changes what is given (null: kept); the key only when `keyGiven` (its null then removes it). */
export async function updateProvider(
  db: Db,
  tenant: string,
  id: string,
  change: {
    name: string | null;
    baseUrl: string | null;
    keyGiven: boolean;
    sealedKey: string | null;
    keyHint: string;
  },
) {
  await db.query(
    `update providers set name = coalesce($3, name), base_url = coalesce($4, base_url),
       api_key = case when $5 then $6 else api_key end, key_hint = case when $5 then $7 else key_hint end
     where id = $1 and tenant = $2`,
    [id, tenant, change.name, change.baseUrl, change.keyGiven, change.sealedKey, change.keyHint],
  );
}

/** The names of the organization's active bots that answer through the provider. */
export async function activeBotsUsing(db: Db, tenant: string, id: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select name from bots where tenant = $1 and active and config->>'provider' = $2 order by name`,
    [tenant, id],
  );
  return rows.map((row) => row.name);
}

/** Deletes the provider; retired bots that named it forget it (they cannot run without it anyway). */
export async function deleteProvider(db: Db, tenant: string, id: string) {
  await db.query(
    `update bots set config = config - 'provider' where tenant = $1 and config->>'provider' = $2`,
    [tenant, id],
  );
  await db.query('delete from providers where id = $1 and tenant = $2', [id, tenant]);
}
