import type { Db } from '../../db/database';

/** Whether password logins of the organization are refused for this role (SSO required; owners keep theirs). */
export async function passwordRefused(db: Db, tenant: string, role: string | null): Promise<boolean> {
  if (role === 'owner') return false;
  const { rows } = await db.query<{ required: boolean }>(
    'select required from sso_configs where tenant = $1',
    [tenant],
  );
  return rows[0]?.required === true;
}

/**
 * The single-use code the callback hands the app, bound to the browser it was handed to: `browserHash`
 * is the SHA-256 of a random value in that browser's HttpOnly cookie.
 */
export async function storeCode(
  db: Db,
  code: { codeHash: string; browserHash: string; tenant: string; userId: string; seconds: number },
): Promise<void> {
  await db.query(
    `insert into oidc_codes (code_hash, browser_hash, tenant, user_id, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [code.codeHash, code.browserHash, code.tenant, code.userId, code.seconds],
  );
}

/**
 * Takes a code for the browser presenting it, once, on any node: its member when it is live, of this
 * organization and handed to this browser; `elsewhere` when it is live but was handed to another
 * browser (it stays for that one: whoever sends a code around cannot use it up); else `invalid`
 * (unknown, used, expired, or of another organization, which uses it up).
 */
export async function takeCode(
  db: Db,
  code: { codeHash: string; browserHash: string | null; tenant: string },
): Promise<{ userId: string } | 'elsewhere' | 'invalid'> {
  const { rows } = await db.query<{ tenant: string; user_id: string; live: boolean }>(
    `delete from oidc_codes where code_hash = $1 and browser_hash = $2
     returning tenant, user_id, expires_at > now() as live`,
    [code.codeHash, code.browserHash],
  );
  if (rows[0])
    return rows[0].live && rows[0].tenant === code.tenant ? { userId: rows[0].user_id } : 'invalid';
  const { rows: pending } = await db.query(
    'select 1 from oidc_codes where code_hash = $1 and expires_at > now()',
    [code.codeHash],
  );
  return pending.length ? 'elsewhere' : 'invalid';
}

/**
 * Records the identity provider's group names of a member at their login (the groups claim). The
 * organization's groups map these names to their members; an empty list is kept too (in no group).
 */
export async function setIdpGroups(db: Db, tenant: string, userId: string, names: string[]): Promise<void> {
  const clean = [...new Set(names.map((name) => name.trim()).filter((name) => name && name.length <= 256))]
    .sort()
    .slice(0, 500);
  await db.query(
    `insert into user_idp_groups (tenant, user_id, names) values ($1, $2, $3::text[])
     on conflict (tenant, user_id) do update set names = excluded.names, updated_at = now()`,
    [tenant, userId, clean],
  );
}

/** The group names the identity provider gave the member at their last SSO login; null when never. */
export async function readIdpGroups(db: Db, tenant: string, userId: string): Promise<string[] | null> {
  const { rows } = await db.query<{ names: string[] }>(
    'select names from user_idp_groups where tenant = $1 and user_id = $2',
    [tenant, userId],
  );
  return rows[0]?.names ?? null;
}

/** A sign-in started at the identity provider, kept by the hash of its state until the callback. */
export interface PendingLogin {
  tenant: string;
  redirectUri: string;
  returnUrl: string;
}

/** Keeps a started sign-in for `minutes`, so the callback on any node can take it. */
export async function startLogin(
  db: Db,
  login: PendingLogin & { stateHash: string; minutes: number },
): Promise<void> {
  await db.query(
    `insert into oidc_logins (state_hash, tenant, redirect_uri, return_url, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(mins => $5))`,
    [login.stateHash, login.tenant, login.redirectUri, login.returnUrl, login.minutes],
  );
}

/** Takes a live started sign-in once, on any node: null when unknown, used or expired. */
export async function takeLogin(db: Db, stateHash: string): Promise<PendingLogin | null> {
  const { rows } = await db.query<{ tenant: string; redirect_uri: string; return_url: string }>(
    'delete from oidc_logins where state_hash = $1 and expires_at > now() returning tenant, redirect_uri, return_url',
    [stateHash],
  );
  const row = rows[0];
  return row ? { tenant: row.tenant, redirectUri: row.redirect_uri, returnUrl: row.return_url } : null;
}

/** Whether the member is suspended (a code taken for them gives no session then). */
export async function isSuspended(db: Db, tenant: string, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ status: string }>(
    'select status from users where id = $1 and tenant = $2',
    [userId, tenant],
  );
  return rows[0]?.status === 'suspended';
}

/** Forgets the started sign-ins and the codes that expired. */
export async function pruneExpired(db: Db): Promise<void> {
  await db.query('delete from oidc_logins where expires_at < now()');
  await db.query('delete from oidc_codes where expires_at < now()');
}
