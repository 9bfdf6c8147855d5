import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import type { Role } from '../requireRole';

/** How long an invitation and its code last; a resend gives both this long again. */
export const invitationMinutes = 72 * 60;

/** An invitation not yet accepted, as the admin area lists it (an expired one too, until resent or revoked). */
export interface Invitation {
  _id: string;
  email: string;
  role: Role;
  invitedAt: string;
  expiresAt: string;
}

interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}
const columns = 'id, email, role, created_at, expires_at';
const toInvitation = (row: InvitationRow): Invitation => ({
  _id: row.id,
  email: row.email,
  role: row.role,
  invitedAt: new Date(row.created_at).toISOString(),
  expiresAt: new Date(row.expires_at).toISOString(),
});

export const invitationNotFound = () =>
  new ApiError(404, 'Invitation not found: it was accepted or revoked meanwhile.', 'NOT_FOUND');

/** The organization's invitations, newest first. */
export async function listInvitations(db: Db, tenant: string): Promise<Invitation[]> {
  const { rows } = await db.query<InvitationRow>(
    `select ${columns} from invitations where tenant = $1 order by created_at desc, id`,
    [tenant],
  );
  return rows.map(toInvitation);
}

/** Whether the address is a member's already (an invitation would be pointless). */
export async function isMember(db: Db, tenant: string, email: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from users where tenant = $1 and lower(email) = lower($2)', [
    tenant,
    email,
  ]);
  return rows.length > 0;
}

/** Invites the address with the role, or invites it again (new role, new time): one invitation per address. */
export async function saveInvitation(
  db: Db,
  tenant: string,
  invitation: { email: string; role: Role; invitedBy: string },
): Promise<Invitation> {
  const { rows } = await db.query<InvitationRow>(
    `insert into invitations (tenant, email, role, invited_by, expires_at)
     values ($1, lower($2), $3, $4, now() + make_interval(mins => $5))
     on conflict (tenant, email) do update set role = excluded.role, invited_by = excluded.invited_by,
       created_at = now(), expires_at = excluded.expires_at
     returning ${columns}`,
    [tenant, invitation.email, invitation.role, invitation.invitedBy, invitationMinutes],
  );
  return toInvitation(rows[0]);
}

/** Gives the invitation its full time again (for a new code); answers it before and after, or null. */
export async function renewInvitation(db: Db, tenant: string, id: string) {
  const { rows } = await db.query<InvitationRow & { previous: Date }>(
    `with old as (select id, expires_at from invitations where id = $1 and tenant = $2 for update)
     update invitations i set expires_at = now() + make_interval(mins => $3)
     from old where i.id = old.id
     returning i.id, i.email, i.role, i.created_at, i.expires_at, old.expires_at as previous`,
    [id, tenant, invitationMinutes],
  );
  const row = rows[0];
  return row ? { invitation: toInvitation(row), previous: new Date(row.previous).toISOString() } : null;
}

/** Removes the invitation; answers what it was, or null when there is none (accepted, revoked). */
export async function removeInvitation(db: Db, tenant: string, id: string): Promise<Invitation | null> {
  const { rows } = await db.query<InvitationRow>(
    `delete from invitations where id = $1 and tenant = $2 returning ${columns}`,
    [id, tenant],
  );
  return rows[0] ? toInvitation(rows[0]) : null;
}
