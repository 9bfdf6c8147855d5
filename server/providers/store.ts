import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

import { providerFetch } from '../security/outbound';
import { ProviderError, type ProviderResolver, type Send } from './types';

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

/** A string setting of a bot's config, when it is a non-empty one. */
export const setting = (config: Record<string, unknown>, name: string) =>
  typeof config[name] === 'string' && config[name] ? (config[name] as string) : undefined;

/**
 * Where a bot's requests go: its organization's provider, its own base URL, or the server's. Image
 * generation (generate_image) goes the same way, with `{ provider }` of the organization's settings.
 */
export async function providerTarget(
  settings: Config['openai'],
  resolve: ProviderResolver | undefined,
  tenant: string,
  config: Record<string, unknown>,
): Promise<{ baseUrl: string; apiKey: string | undefined; send: Send }> {
  const providerId = setting(config, 'provider');
  if (providerId) {
    const found = resolve ? await resolve(tenant, providerId) : null;
    if (!found) throw new ProviderError('This bot’s provider no longer exists.', 'PROVIDER_NOT_CONFIGURED');
    return found;
  }
  const baseUrl = setting(config, 'baseUrl') ?? settings.baseUrl;
  if (!baseUrl)
    throw new ProviderError('No model server is configured for this bot.', 'PROVIDER_NOT_CONFIGURED');
  // The environment's key belongs to the environment's server: never send it to another host.
  const apiKey = setting(config, 'apiKey') ?? (baseUrl === settings.baseUrl ? settings.apiKey : undefined);
  return { baseUrl, apiKey, send: fetch };
}
