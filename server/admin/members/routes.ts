import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { audit } from '../../audit/store';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { notify } from '../../notifications/store';
import { decodeCursor, encodeCursor, idParams, objectOf } from '../../schemas';
import { atLeast, forbidden, type Role, roles } from '../requireRole';

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
const toMember = (row: MemberRow) => ({
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
const memberNotFound = () => new ApiError(404, 'Member not found', 'NOT_FOUND');

async function readMember(db: Db, tenant: string, id: string) {
  const { rows } = await db.query<MemberRow>(
    `select ${memberColumns} from users where id = $1 and tenant = $2`,
    [id, tenant],
  );
  if (!rows[0]) throw memberNotFound();
  return toMember(rows[0]);
}

const isCursor = (value: unknown): value is [string, string] =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((part) => typeof part === 'string' && part.length <= 300);
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * Members: list with search and pages; change role; suspend or reinstate (ending their sessions at
 * once); grant or deduct credit with a note. An admin cannot touch an owner, nor make one; the last
 * active owner cannot be demoted or suspended. Invitations have their own plugin (../invitations).
 */
export const membersAdminPlugin: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { q?: string; cursor?: string; limit?: string } }>(
    '/member',
    {
      schema: {
        querystring: objectOf({
          q: { type: 'string', maxLength: 200 },
          cursor: { type: 'string', maxLength: 1000 },
          limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$' },
        }),
      },
    },
    async (request) => {
      const limit = Number(request.query.limit ?? 50);
      const q = request.query.q?.trim() ?? '';
      const after = request.query.cursor ? decodeCursor(request.query.cursor, isCursor) : null;
      const { rows } = await app.db.query<MemberRow>(
        `select ${memberColumns} from users
         where tenant = $1
           and ($2 = '' or display_name ilike $3 or username ilike $3 or email ilike $3)
           and ($4::text is null or (lower(display_name), id) > ($4::text, $5::text))
         order by lower(display_name), id limit $6`,
        [request.tenant, q, likePattern(q), after?.[0] ?? null, after?.[1] ?? '', limit + 1],
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toMember),
        next: rows.length > limit && last ? encodeCursor([last.sort_name, last.id]) : null,
      };
    },
  );

  app.patch<{ Params: { id: string }; Body: { role?: Role; suspended?: boolean } }>(
    '/member/:id',
    {
      schema: {
        params: idParams,
        body: objectOf({ role: { type: 'string', enum: roles }, suspended: { type: 'boolean' } }, [], 1),
      },
    },
    async (request) => {
      const { tenant } = request;
      const actorRole = request.role;
      const targetId = request.params.id;
      const outcome = await app.db.transaction(async (tx) => {
        // The owners and the target, locked: two owners demoting each other cannot both succeed.
        const { rows } = await tx.query<{ id: string; role: Role; status: string }>(
          `select id, role, status from users where tenant = $1 and (role = 'owner' or id = $2)
           order by id for update`,
          [tenant, targetId],
        );
        const target = rows.find((row) => row.id === targetId);
        if (!target) throw memberNotFound();
        const role = request.body.role ?? target.role;
        const status =
          request.body.suspended === undefined
            ? target.status
            : request.body.suspended
              ? 'suspended'
              : 'active';
        if (target.role === 'owner' && actorRole !== 'owner')
          throw forbidden('Only an owner can change or suspend an owner.');
        if (role === 'owner' && target.role !== 'owner' && !atLeast(actorRole, 'owner'))
          throw forbidden('Only an owner can make another member an owner.');
        if (targetId === request.auth.userId && status === 'suspended')
          throw new ApiError(400, 'You cannot suspend yourself.', 'INVALID_INPUT', 'suspended');
        const losesOwner = target.role === 'owner' && (role !== 'owner' || status !== 'active');
        const otherOwners = rows.filter(
          (row) => row.role === 'owner' && row.status === 'active' && row.id !== targetId,
        );
        if (losesOwner && !otherOwners.length) {
          throw new ApiError(
            409,
            'The organization needs an owner: make another member owner first.',
            'LAST_OWNER',
            request.body.role === undefined ? 'suspended' : 'role',
          );
        }
        await tx.query('update users set role = $3, status = $4 where id = $1 and tenant = $2', [
          targetId,
          tenant,
          role,
          status,
        ]);
        if (target.status !== status) {
          await notifyStatus(tx, request, targetId, status);
        }
        await audit(tx, request, {
          action: 'member.update',
          target: targetId,
          before: { role: target.role, status: target.status },
          after: { role, status },
        });
        return { suspended: status === 'suspended' && target.status !== 'suspended' };
      });
      // Suspension ends every session at once, on every node; any change is forgotten everywhere.
      if (outcome.suspended) await app.sessions.revokeAll({ tenant, userId: targetId });
      else await app.sessions.forget(targetId);
      return readMember(app.db, tenant, targetId);
    },
  );

  async function notifyStatus(tx: Db, request: FastifyRequest, userId: string, status: string) {
    if (status === 'active')
      await notify(tx, {
        tenant: request.tenant,
        userId,
        title: 'Your account is active again',
        body: 'An administrator reinstated your account. Welcome back.',
      });
  }

  app.post<{ Params: { id: string }; Body: { amount: number; note: string } }>(
    '/member/:id/credit',
    {
      schema: {
        params: idParams,
        body: objectOf(
          {
            amount: { type: 'number', minimum: -1_000_000, maximum: 1_000_000 },
            note: { type: 'string', minLength: 1, maxLength: 200 },
          },
          ['amount', 'note'],
        ),
      },
    },
    async (request) => {
      const { tenant } = request;
      const cents = request.body.amount * 100;
      // Whole cents: 0.001 would be booked (and announced as "+0.00") for nothing anyone can see.
      if (Math.abs(cents - Math.round(cents)) > 1e-6)
        throw new ApiError(
          400,
          'The amount is in whole cents: at most two decimals.',
          'INVALID_INPUT',
          'amount',
        );
      const amount = Math.round(cents) / 100;
      const note = request.body.note.replace(/\s+/g, ' ').trim();
      if (amount === 0) throw new ApiError(400, 'The amount cannot be zero.', 'INVALID_INPUT', 'amount');
      if (!note) throw new ApiError(400, 'Please fill in note.', 'INVALID_INPUT', 'note');
      const result = await app.db.transaction(async (tx) => {
        // One statement: the balance moves only if what is left still covers what replies hold, and
        // only a member's balance unless an owner asks (the target's role as it is when the row is locked).
        const { rows } = await tx.query<{
          balance: string;
          reserved: string;
          currency: string;
          before: string;
        }>(
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
            request.params.id,
            tenant,
            amount,
            amount > 0 ? `Credit: ${note}` : `Deduction: ${note}`,
            amount > 0 ? 'Credit added' : 'Credit deducted',
            `${amount > 0 ? '+' : '−'}${Math.abs(amount).toFixed(2)}`,
            note,
            request.role === 'owner',
            request.auth.userId,
          ],
        );
        if (!rows[0]) {
          const { rows: found } = await tx.query<{ id: string; role: Role }>(
            'select id, role from users where id = $1 and tenant = $2',
            [request.params.id, tenant],
          );
          if (!found[0]) throw memberNotFound();
          if (request.role !== 'owner' && (found[0].role !== 'member' || found[0].id === request.auth.userId))
            throw forbidden('Only an owner can grant or deduct credit for an admin, an owner or themselves.');
          throw new ApiError(
            400,
            'This would take the balance below zero (or below what running replies hold).',
            'INSUFFICIENT_BALANCE',
            'amount',
          );
        }
        await audit(tx, request, {
          action: 'member.credit',
          target: request.params.id,
          before: { balance: Number(rows[0].before) },
          after: { balance: Number(rows[0].balance), amount, note },
        });
        return rows[0];
      });
      return {
        balance: Number(result.balance),
        reserved: Number(result.reserved),
        currency: result.currency,
      };
    },
  );
};
