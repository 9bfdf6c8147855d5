import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyRequest } from 'fastify';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { notify } from '../../notifications/store';
import { decodeCursor, encodeCursor, idParams, objectOf } from '../../schemas';
import { atLeast, forbidden, type Role, roles } from '../requireRole';
import {
  listMembers,
  lockOwnersAnd,
  type MemberPosition,
  memberNotFound,
  moveCredit,
  readMember,
  roleOf,
  type Standing,
  setStanding,
} from './store';

const memberSchema = objectOf(
  {
    _id: { type: 'string' },
    username: { type: 'string' },
    displayName: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string', enum: roles },
    status: { type: 'string', enum: ['active', 'suspended'] },
    balance: { type: 'number' },
    reserved: { type: 'number', description: 'what running replies hold of the balance' },
    currency: { type: 'string' },
    createdAt: { type: 'string' },
  },
  [
    '_id',
    'username',
    'displayName',
    'email',
    'role',
    'status',
    'balance',
    'reserved',
    'currency',
    'createdAt',
  ],
);

const isPosition = (value: unknown): value is MemberPosition =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((part) => typeof part === 'string' && part.length <= 300);

/** `GET /member`: the members by name, in pages, searched by name, username or address. */
const listRoute: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get(
    '/member',
    {
      schema: {
        querystring: objectOf({
          q: { type: 'string', maxLength: 200 },
          cursor: { type: 'string', maxLength: 1000 },
          limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$' },
        }),
        response: {
          200: objectOf(
            { items: { type: 'array', items: memberSchema }, next: { type: ['string', 'null'] } },
            ['items', 'next'],
          ),
        },
      },
    },
    async (request) => {
      const { items, next } = await listMembers(app.db, request.tenant, {
        q: request.query.q?.trim() ?? '',
        after: request.query.cursor ? decodeCursor(request.query.cursor, isPosition) : null,
        limit: Number(request.query.limit ?? 50),
      });
      return { items, next: next ? encodeCursor(next) : null };
    },
  );
};

/**
 * The member's new standing, when the actor may give it: an admin cannot touch an owner, nor make
 * one; nobody suspends themselves; the last active owner stays one. `rows`: the owners and the target.
 */
function standingAfter(
  request: FastifyRequest,
  rows: Standing[],
  targetId: string,
  change: { role?: Role; suspended?: boolean },
): Standing & { before: Standing } {
  const target = rows.find((row) => row.id === targetId);
  if (!target) throw memberNotFound();
  const role = change.role ?? target.role;
  const status = change.suspended === undefined ? target.status : change.suspended ? 'suspended' : 'active';
  if (target.role === 'owner' && request.role !== 'owner')
    throw forbidden('Only an owner can change or suspend an owner.');
  if (role === 'owner' && target.role !== 'owner' && !atLeast(request.role, 'owner'))
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
      change.role === undefined ? 'suspended' : 'role',
    );
  }
  return { id: targetId, role, status, before: target };
}

/** `PATCH /member/:id`: change the role, suspend or reinstate (ending their sessions at once). */
const changeRoute: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.patch(
    '/member/:id',
    {
      schema: {
        params: idParams,
        body: objectOf({ role: { type: 'string', enum: roles }, suspended: { type: 'boolean' } }, [], 1),
        response: { 200: memberSchema },
      },
    },
    async (request) => {
      const { tenant } = request;
      const targetId = request.params.id;
      const suspended = await app.db.transaction(async (tx) => {
        // The owners and the target, locked: two owners demoting each other cannot both succeed.
        const rows = await lockOwnersAnd(tx, tenant, targetId);
        const { before, ...after } = standingAfter(request, rows, targetId, request.body);
        await setStanding(tx, tenant, after);
        if (before.status !== after.status && after.status === 'active')
          await notify(tx, {
            tenant,
            userId: targetId,
            title: 'Your account is active again',
            body: 'An administrator reinstated your account. Welcome back.',
          });
        await audit(tx, request, {
          action: 'member.update',
          target: targetId,
          before: { role: before.role, status: before.status },
          after: { role: after.role, status: after.status },
        });
        return after.status === 'suspended' && before.status !== 'suspended';
      });
      // Suspension ends every session at once, on every node; any change is forgotten everywhere.
      if (suspended) await app.sessions.revokeAll({ tenant, userId: targetId });
      else await app.sessions.forget(targetId);
      return readMember(app.db, tenant, targetId);
    },
  );
};

/** The amount in whole cents (0.001 would be booked, and announced as "+0.00", for nothing) and the note. */
function creditOf(body: { amount: number; note: string }) {
  const cents = body.amount * 100;
  if (Math.abs(cents - Math.round(cents)) > 1e-6)
    throw new ApiError(400, 'The amount is in whole cents: at most two decimals.', 'INVALID_INPUT', 'amount');
  const amount = Math.round(cents) / 100;
  const note = body.note.replace(/\s+/g, ' ').trim();
  if (amount === 0) throw new ApiError(400, 'The amount cannot be zero.', 'INVALID_INPUT', 'amount');
  if (!note) throw new ApiError(400, 'Please fill in note.', 'INVALID_INPUT', 'note');
  return { amount, note };
}

/** `POST /member/:id/credit`: grant or deduct credit with a note; answers the new balance. */
const creditRoute: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.post(
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
        response: {
          200: objectOf(
            { balance: { type: 'number' }, reserved: { type: 'number' }, currency: { type: 'string' } },
            ['balance', 'reserved', 'currency'],
          ),
        },
      },
    },
    async (request) => {
      const { tenant } = request;
      const targetId = request.params.id;
      const { amount, note } = creditOf(request.body);
      const byOwner = request.role === 'owner';
      return app.db.transaction(async (tx) => {
        const moved = await moveCredit(tx, tenant, targetId, {
          amount,
          note,
          byOwner,
          actorId: request.auth.userId,
        });
        if (!moved) {
          const role = await roleOf(tx, tenant, targetId);
          if (!role) throw memberNotFound();
          if (!byOwner && (role !== 'member' || targetId === request.auth.userId))
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
          target: targetId,
          before: { balance: moved.before },
          after: { balance: moved.balance, amount, note },
        });
        return { balance: moved.balance, reserved: moved.reserved, currency: moved.currency };
      });
    },
  );
};

/**
 * Members: list with search and pages; change role; suspend or reinstate; grant or deduct credit.
 * Invitations have their own plugin (../invitations).
 */
export const membersAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  await app.register(listRoute);
  await app.register(changeRoute);
  await app.register(creditRoute);
};
