import type { Db } from '../db/database';

/**
 * The organization's search engine as stored (`organizations.search`, null: none): a SearXNG
 * instance's address, or Brave Search with its key sealed (like providers' keys) and its last four
 * characters (when long enough to give nothing away).
 */
export type StoredSearch =
  | { engine: 'searxng'; url: string }
  | { engine: 'brave'; key: string; keyHint: string };

/** The search engine as admins see it: the Brave key never in clear (`••••1234`). */
export type SearchSettings = { engine: 'searxng'; url: string } | { engine: 'brave'; key: string };

export const searchSettingsOf = (stored: StoredSearch | null): SearchSettings | null => {
  if (!stored) return null;
  if (stored.engine === 'searxng') return { engine: 'searxng', url: stored.url };
  return { engine: 'brave', key: `••••${stored.keyHint}` };
};

/** The last four characters of a key long enough for them to give nothing away. */
export const searchKeyHint = (key: string) => (key.length >= 12 ? key.slice(-4) : '');

/** The organization's search engine as stored (its key sealed); null when it has none. */
export async function readSearch(db: Db, tenant: string): Promise<StoredSearch | null> {
  const { rows } = await db.query<{ search: StoredSearch | null }>(
    'select search from organizations where subdomain = $1',
    [tenant],
  );
  return rows[0]?.search ?? null;
}
