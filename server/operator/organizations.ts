import { recordAudit } from '../audit/store';
import type { Codes } from '../auth/codes';
import { organizationsChannel } from '../db/channels';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { SendMail } from '../mail/mailer';
import { subdomainProblem } from '../organizations/store';
import { cleanName } from '../schemas';
import { seedLibrarian } from '../seed/seed';

/** How long a new owner's code works: the operator's mail may wait a while to be read. */
export const ownerCodeMinutes = 72 * 60;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class OperatorError extends Error {}

const announce = (db: Db, subdomain: string) =>
  db.query('select pg_notify($1, $2)', [organizationsChannel, subdomain]);

/** A username for a new owner from their address: its local part in the allowed letters, made unique. */
async function usernameFor(db: Db, tenant: string, email: string): Promise<string> {
  let base = email
    .slice(0, email.indexOf('@'))
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, 24);
  if (base.length < 3) base = `${base}owner`.slice(0, 24);
  for (let suffix = 0; ; suffix += 1) {
    const candidate = suffix ? `${base}${suffix}` : base;
    const { rows } = await db.query('select 1 from users where tenant = $1 and lower(username) = lower($2)', [
      tenant,
      candidate,
    ]);
    if (!rows.length) return candidate;
  }
}

/**
 * Creates an organization and its owner, who has no password yet: a one-time code (the reset-password
 * flow's) is mailed to them to choose one at the organization's address (/forgot).
 */
export async function createOrganization(
  services: { db: Db; codes: Codes; sendMail: SendMail; startingBalance: number },
  input: { subdomain: string; name: string; owner: string },
) {
  const { db } = services;
  const subdomain = input.subdomain.trim();
  const problem = subdomainProblem(subdomain);
  if (problem) throw new OperatorError(problem);
  let name: string;
  try {
    name = cleanName(input.name);
  } catch (error) {
    throw new OperatorError(
      error instanceof ApiError ? 'Give the organization a name: --name "Name".' : String(error),
    );
  }
  const owner = input.owner.trim();
  if (!emailPattern.test(owner)) throw new OperatorError(`Not an email address: ${owner}`);

  const created = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; currency: string }>(
      'insert into organizations (subdomain, name) values ($1, $2) on conflict (subdomain) do nothing returning id, currency',
      [subdomain, name],
    );
    if (!rows[0]) throw new OperatorError(`The organization ${subdomain} exists already.`);
    const username = await usernameFor(tx, subdomain, owner);
    const { rows: users } = await tx.query<{ id: string }>(
      `insert into users (tenant, username, display_name, email, password_hash, balance, currency, role)
       values ($1, $2, $3, $4, '', $5, $6, 'owner') returning id`,
      [
        subdomain,
        username,
        owner.slice(0, owner.indexOf('@')).slice(0, 64) || username,
        owner,
        services.startingBalance,
        rows[0].currency,
      ],
    );
    if (services.startingBalance > 0) {
      await tx.query(
        'insert into transactions (tenant, user_id, amount, description) values ($1, $2, $3, $4)',
        [subdomain, users[0].id, services.startingBalance, 'Welcome credit'],
      );
    }
    await seedLibrarian(tx, subdomain, 0);
    await recordAudit(tx, {
      tenant: subdomain,
      actor: 'operator',
      action: 'organization.create',
      target: rows[0].id,
      before: null,
      after: { subdomain, name, owner },
    });
    return { id: rows[0].id, ownerId: users[0].id };
  });
  await announce(db, subdomain);
  const code = await services.codes.issue(subdomain, owner, 'reset', ownerCodeMinutes);
  await services.sendMail({
    to: owner,
    subject: `Your organization ${name} on Parley`,
    text:
      `The organization ${name} has been created on Parley, with you as its owner.\n\n` +
      `Your Parley code is ${code}\n\n` +
      `To choose your password, open the organization's address (${subdomain}.<your Parley address>/forgot), ` +
      `enter this email address (${owner}), choose "I already have a code", then enter the code and a new password. ` +
      `The code works once, for ${ownerCodeMinutes / 60} hours; after that, ask for a new one on the same page.\n`,
  });
  return { subdomain, name, owner, ...created };
}

export interface OrganizationSummary {
  subdomain: string;
  name: string;
  disabled: boolean;
  members: number;
  owners: string[];
  createdAt: string;
}

export async function listOrganizations(db: Db): Promise<OrganizationSummary[]> {
  const { rows } = await db.query<{
    subdomain: string;
    name: string;
    disabled: boolean;
    members: string;
    owners: string[] | null;
    created_at: Date;
  }>(
    `select o.subdomain, o.name, o.disabled, o.created_at,
            (select count(*) from users u where u.tenant = o.subdomain) as members,
            (select array_agg(u.email order by u.email) from users u where u.tenant = o.subdomain and u.role = 'owner') as owners
     from organizations o order by o.subdomain`,
  );
  return rows.map((row) => ({
    subdomain: row.subdomain,
    name: row.name,
    disabled: row.disabled,
    members: Number(row.members),
    owners: row.owners ?? [],
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** Disables (or enables again) an organization: its data is kept; every node stops serving it at once. */
export async function setDisabled(db: Db, subdomain: string, disabled: boolean) {
  if (subdomain === 'app') throw new OperatorError('The app organization cannot be disabled.');
  const changed = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; before: boolean }>(
      `update organizations o set disabled = $2 from organizations old
       where o.subdomain = $1 and old.subdomain = o.subdomain returning o.id, old.disabled as before`,
      [subdomain, disabled],
    );
    if (!rows[0]) throw new OperatorError(`No organization ${subdomain}.`);
    if (rows[0].before !== disabled) {
      await recordAudit(tx, {
        tenant: subdomain,
        actor: 'operator',
        action: disabled ? 'organization.disable' : 'organization.enable',
        target: rows[0].id,
        before: { disabled: rows[0].before },
        after: { disabled },
      });
    }
    return rows[0].before !== disabled;
  });
  await announce(db, subdomain);
  return changed;
}
