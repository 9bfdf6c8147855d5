import type { FastifyInstance } from 'fastify';

import { providerFetch } from '../security/outbound';
import type { ProviderResolver } from './types';

export interface ProviderRow {
  id: string;
  name: string;
  base_url: string;
  api_key: string | null;
  key_hint: string;
  created_at: Date;
  bots: string;
}

/** A key as a client may see it: never more than its last four characters ("••••1234"). */
export const maskKey = (row: Pick<ProviderRow, 'api_key' | 'key_hint'>) =>
  row.api_key ? `••••${row.key_hint}` : null;

/** The last four characters of a key long enough for them to give nothing away. */
export const keyHint = (key: string) => (key.length >= 12 ? key.slice(-4) : '');

export const toProvider = (row: ProviderRow) => ({
  _id: row.id,
  name: row.name,
  baseUrl: row.base_url,
  apiKey: maskKey(row),
  bots: Number(row.bots),
  createdAt: new Date(row.created_at).toISOString(),
});

export const providerColumns = `p.id, p.name, p.base_url, p.api_key, p.key_hint, p.created_at,
  (select count(*) from bots b where b.tenant = p.tenant and b.config->>'provider' = p.id) as bots`;

/** A provider of the organization with its key unsealed, for one call; null when it is not theirs. */
export async function openProvider(app: FastifyInstance, tenant: string, id: string) {
  const { rows } = await app.db.query<{ base_url: string; api_key: string | null }>(
    'select base_url, api_key from providers where id = $1 and tenant = $2',
    [id, tenant],
  );
  const row = rows[0];
  if (!row) return null;
  const allowPrivate = app.config.allowPrivateProviderUrls;
  return {
    baseUrl: row.base_url,
    // Unsealed at call time only, bound to the organization: a key copied to another one does not open.
    apiKey: row.api_key ? app.secrets.unseal(row.api_key, tenant) : undefined,
    send: (url: string, init: Parameters<typeof providerFetch>[1]) => providerFetch(url, init, allowPrivate),
  };
}

/** How the openai platform finds a bot's provider: in the bot's own organization, at call time. */
export const resolveProvider =
  (app: FastifyInstance): ProviderResolver =>
  (tenant, id) =>
    openProvider(app, tenant, id);
