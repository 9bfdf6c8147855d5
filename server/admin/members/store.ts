import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import type { Role } from '../requireRole';

/** A member as the admin area lists them. */
export interface Member {
  _id: string;
  username: string;
  displayName: string;
  email: string;
  role: Role;
  status: 'active' | 'suspended';
  balance: number;
  reserved: number;
  currency: string;
  createdAt: string;
}

interface MemberRow {
  id: string;
  username: string;
  display_name: string;
  email: string;
  role: Role;
  status: 'active' | 'suspended';
  balance: string;
  reserved: string;
  currency: string;
  created_at: Date;
  sort_name: string;
}
const toMember = (row: MemberRow): Member => ({
  _id: row.id,
  username: row.username,
  displayName: row.display_name,
  email: row.email,
  role: row.role,
  status: row.status,
  balance: Number(row.balance),
  reserved: Number(row.reserved),
  currency: row.currency,
  createdAt: new Date(row.created_at).toISOString(),
});
const memberColumns = `id, username, display_name, email, role, status, balance, reserved, currency, created_at,
  lower(display_name) as sort_name`;

export const memberNotFound = () => new ApiError(404, 'Member not found', 'NOT_FOUND');

/** The organization's member; 404 for anyone else's or none. */
export async function readMember(db: Db, tenant: string, id: string): Promise<Member> {
  const { rows } = await db.query<MemberRow>(
    `select ${memberColumns} from users where id = $1 and tenant = $2`,
    [id, tenant],
  );
  if (!rows[0]) throw memberNotFound();
  return toMember(rows[0]);
}

/** Where a page of members ends: the last one's sort name and id. */
export type MemberPosition = [sortName: string, id: string];

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * A page of the organization's members by name, after `after`, those whose name, username or address
 * holds `q` (any when empty); `next`: where the following page starts, or null at the end.
 */
export async function listMembers(
  db: Db,
  tenant: string,
  { q, after, limit }: { q: string; after: MemberPosition | null; limit: number },
): Promise<{ items: Member[]; next: MemberPosition | null }> {
  const { rows } = await db.query<MemberRow>(
    `select ${memberColumns} from users
     where tenant = $1
       and ($2 = '' or display_name ilike $3 or username ilike $3 or email ilike $3)
       and ($4::text is null or (lower(display_name), id) > ($4::text, $5::text))
     order by lower(display_name), id limit $6`,
    [tenant, q, likePattern(q), after?.[0] ?? null, after?.[1] ?? '', limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toMember),
    next: rows.length > limit && last ? [last.sort_name, last.id] : null,
  };
}

export interface Standing {
  id: string;
  role: Role;
  status: 'active' | 'suspended';
}

/** The organization's owners and the member `id`, locked until the transaction ends. */
export async function lockOwnersAnd(db: Db, tenant: string, id: string): Promise<Standing[]> {
  const { rows } = await db.query<Standing>(
    `select id, role, status from users where tenant = $1 and (role = 'owner' or id = $2)
     order by id for update`,
    [tenant, id],
  );
  return rows;
}

export async function setStanding(db: Db, tenant: string, { id, role, status }: Standing) {
  await db.query('update users set role = $3, status = $4 where id = $1 and tenant = $2', [
    id,
    tenant,
    role,
    status,
  ]);
}

/** The member's role, or null when the organization has no such member. */
export async function roleOf(db: Db, tenant: string, id: string): Promise<Role | null> {
  const { rows } = await db.query<{ role: Role }>('select role from users where id = $1 and tenant = $2', [
    id,
    tenant,
  ]);
  return rows[0]?.role ?? null;
}

export interface CreditMove {
  /** In the organization's currency, whole cents; negative deducts. */
  amount: number;
  note: string;
  /** An owner may move anyone's balance; an admin only a member's other than their own. */
  byOwner: boolean;
  actorId: string;
}

/**
 * Moves the member's balance by the amount in one statement, with its transaction and the member's
 * notification: only if what is left still covers what replies hold, and only a member's balance
 * unless an owner asks (the target's role as it is when the row is locked). Null when refused.
 */
export async function moveCredit(db: Db, tenant: string, userId: string, move: CreditMove) {
  const { amount, note } = move;
  const { rows } = await db.query<{ balance: string; reserved: string; currency: string; before: string }>(
    `with changed as (
       update users set balance = balance + $3
       where id = $1 and tenant = $2 and balance + $3 >= reserved and balance + $3 >= 0
         and ($8 or (role = 'member' and id <> $9))
       returning balance, reserved, currency, balance - $3 as before),
     recorded as (
       insert into transactions (tenant, user_id, amount, description)
       select $2, $1, $3, $4 from changed),
     noticed as (
       insert into notifications (tenant, user_id, title, body)
       select $2, $1, $5, $6 || ' ' || currency || ': ' || $7 from changed)
     select balance, reserved, currency, before from changed`,
    [
      userId,
      tenant,
      amount,
      amount > 0 ? `Credit: ${note}` : `Deduction: ${note}`,
      amount > 0 ? 'Credit added' : 'Credit deducted',
      `${amount > 0 ? '+' : '−'}${Math.abs(amount).toFixed(2)}`,
      note,
      move.byOwner,
      move.actorId,
    ],
  );
  const row = rows[0];
  return row
    ? {
        balance: Number(row.balance),
        reserved: Number(row.reserved),
        currency: row.currency,
        before: Number(row.before),
      }
    : null;
}
