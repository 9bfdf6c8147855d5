import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database';
import { type OrganizationRow, startingBalanceOf } from '../../organizations/store';
import { hashPassword } from '../../security/passwords';
import { createAccount } from '../store';
import { IdpProblem } from './client';

/** What the identity provider told about the person, read through the organization's claim names. */
export interface IdpPerson {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const invisible = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u180E\u00AD]/gu;

/** A display name from the provider's name claim: cleaned as a typed one, else the address's local part. */
function displayNameOf(name: string, email: string): string {
  const clean = name
    .normalize('NFKC')
    .replace(invisible, '')
    .replace(/\p{Cc}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  const chosen = /[\p{L}\p{N}\p{P}\p{S}]/u.test(clean) ? clean : email.slice(0, email.indexOf('@'));
  return [...chosen].slice(0, 64).join('');
}

/** A username the organization does not have yet, made of the address's local part. */
async function freeUsername(tx: Db, tenant: string, email: string): Promise<string> {
  const base =
    email
      .slice(0, email.indexOf('@'))
      .normalize('NFKC')
      .replace(/[^A-Za-z0-9_.-]/g, '')
      .slice(0, 24) || 'member';
  const stem = base.length >= 3 ? base : `${base}${'_'.repeat(3 - base.length)}`;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const candidate = attempt === 0 ? stem : `${stem}${randomBytes(3).readUIntBE(0, 3) % 100_000}`;
    const { rows } = await tx.query('select 1 from users where tenant = $1 and lower(username) = lower($2)', [
      tenant,
      candidate,
    ]);
    if (!rows.length) return candidate;
  }
  return `member${randomBytes(6).toString('hex')}`;
}

export const checkEmailClaim = (value: unknown): string => {
  if (typeof value !== 'string' || value.length > 254 || !emailPattern.test(value.trim()))
    throw new IdpProblem(
      'The identity provider did not send an email address. An owner must check the SSO settings (email claim).',
      'NO_EMAIL',
    );
  return value.trim();
};

/**
 * The member the person signs in as: the one their identity is linked to; else the account with their
 * address, linked only when the provider verified that address; else a new member, just in time, with
 * the organization's starting balance (an invitation's role when they were invited). Part of `tx`.
 */
export async function memberFor(
  tx: Db,
  organization: OrganizationRow,
  person: IdpPerson,
  fallbackBalance: number,
): Promise<{ userId: string; status: string; created: boolean }> {
  const tenant = organization.subdomain;
  const { rows: linked } = await tx.query<{ id: string; status: string }>(
    `select u.id, u.status from user_identities i join users u on u.id = i.user_id and u.tenant = i.tenant
     where i.tenant = $1 and i.issuer = $2 and i.subject = $3`,
    [tenant, person.issuer, person.subject],
  );
  if (linked[0]) {
    await tx.query(
      'update user_identities set last_login_at = now() where tenant = $1 and issuer = $2 and subject = $3',
      [tenant, person.issuer, person.subject],
    );
    return { userId: linked[0].id, status: linked[0].status, created: false };
  }

  const { rows: existing } = await tx.query<{ id: string; status: string }>(
    'select id, status from users where tenant = $1 and lower(email) = lower($2)',
    [tenant, person.email],
  );
  let userId: string;
  let status = 'active';
  let created = false;
  if (existing[0]) {
    // Never take over an account by an address the provider has not verified.
    if (!person.emailVerified)
      throw new IdpProblem(
        'An account with this email address exists already, and your identity provider has not verified the address. Ask your administrator to verify it, or log in with your password.',
        'EMAIL_NOT_VERIFIED',
      );
    userId = existing[0].id;
    status = existing[0].status;
  } else {
    const { rows: invited } = await tx.query<{ role: 'owner' | 'admin' | 'member' }>(
      // An expired invitation gives no role (the identity provider still admits them as a member).
      'select role from invitations where tenant = $1 and email = lower($2) and expires_at > now()',
      [tenant, person.email],
    );
    const role = invited[0]?.role ?? 'member';
    const balance = startingBalanceOf(organization, fallbackBalance);
    // Nobody knows this password: the member signs in through the identity provider.
    const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
    userId = await createAccount(tx, {
      tenant,
      username: await freeUsername(tx, tenant, person.email),
      displayName: displayNameOf(person.name, person.email),
      email: person.email,
      passwordHash,
      startingBalance: balance,
      role,
    });
    created = true;
  }
  await tx.query(
    `insert into user_identities (tenant, issuer, subject, user_id) values ($1, $2, $3, $4)
     on conflict (tenant, issuer, subject) do update set user_id = excluded.user_id, last_login_at = now()`,
    [tenant, person.issuer, person.subject, userId],
  );
  return { userId, status, created };
}
