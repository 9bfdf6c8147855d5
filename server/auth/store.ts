import type { Db } from '../db/database';
import { notify } from '../notifications/store';
import type { Owner } from '../owner';

/** What a password login needs to know of the account an address names. */
export interface LoginAccount {
  id: string;
  passwordHash: string;
  status: string;
  role: string;
}

/** Which of an address and a username the organization already has an account for, email first. */
export async function takenBy(
  db: Db,
  tenant: string,
  email: string,
  username: string,
): Promise<'email' | 'username' | null> {
  const { rows } = await db.query<{ email_taken: boolean }>(
    'select lower(email) = lower($2) as email_taken from users where tenant = $1 and (lower(email) = lower($2) or lower(username) = lower($3))',
    [tenant, email, username],
  );
  if (rows.some((row) => row.email_taken)) return 'email';
  return rows.length ? 'username' : null;
}

/**
 * Opens an account at signup or at a first SSO login, in the caller's transaction: the user in the organization's currency,
 * their invitation used up, the welcome credit booked and a welcome notification. Returns its id.
 */
export async function createAccount(
  db: Db,
  account: {
    tenant: string;
    username: string;
    displayName: string;
    email: string;
    passwordHash: string;
    startingBalance: number;
    role: string;
  },
): Promise<string> {
  const { tenant, startingBalance } = account;
  const { rows } = await db.query<{ id: string }>(
    `insert into users (tenant, username, display_name, email, password_hash, balance, currency, role)
     select $1, $2, $3, $4, $5, $6, currency, $7 from organizations where subdomain = $1 returning id`,
    [
      tenant,
      account.username,
      account.displayName,
      account.email,
      account.passwordHash,
      startingBalance,
      account.role,
    ],
  );
  const id = rows[0].id;
  // The invitation is used up: the member is in.
  await db.query('delete from invitations where tenant = $1 and email = lower($2)', [tenant, account.email]);
  if (startingBalance > 0) {
    await db.query(
      'insert into transactions (tenant, user_id, amount, description) values ($1, $2, $3, $4)',
      [tenant, id, startingBalance, 'Welcome credit'],
    );
  }
  await notify(db, {
    tenant,
    userId: id,
    title: 'Welcome to Parley',
    body: 'Your account is ready, with a welcome credit. Pick a bot and say hello.',
  });
  return id;
}

/** The account a (lower-cased) address logs in to, or null. */
export async function findLoginAccount(db: Db, tenant: string, email: string): Promise<LoginAccount | null> {
  const { rows } = await db.query<{ id: string; password_hash: string; status: string; role: string }>(
    'select id, password_hash, status, role from users where tenant = $1 and lower(email) = $2',
    [tenant, email],
  );
  const row = rows[0];
  return row ? { id: row.id, passwordHash: row.password_hash, status: row.status, role: row.role } : null;
}

/** The address as the account has it, whatever its case, or null when no account has it. */
export async function registeredEmail(db: Db, tenant: string, email: string): Promise<string | null> {
  const { rows } = await db.query<{ email: string }>(
    'select email from users where tenant = $1 and lower(email) = lower($2)',
    [tenant, email],
  );
  return rows[0]?.email ?? null;
}

/** Sets the password of the account an address names; its id, status and role, or null when none. */
export async function resetPassword(
  db: Db,
  tenant: string,
  email: string,
  passwordHash: string,
): Promise<{ id: string; status: string; role: string } | null> {
  const { rows } = await db.query<{ id: string; status: string; role: string }>(
    'update users set password_hash = $3 where tenant = $1 and lower(email) = lower($2) returning id, status, role',
    [tenant, email, passwordHash],
  );
  return rows[0] ?? null;
}

/** Sets the signed-in user's password. */
export async function changePassword(db: Db, owner: Owner, passwordHash: string): Promise<void> {
  await db.query('update users set password_hash = $3 where id = $1 and tenant = $2', [
    owner.userId,
    owner.tenant,
    passwordHash,
  ]);
}
