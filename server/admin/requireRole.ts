import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { suspendedMember } from '../auth/sessions';
import { ApiError } from '../errors';

export type Role = 'owner' | 'admin' | 'member';
const rank: Record<Role, number> = { member: 0, admin: 1, owner: 2 };
export const roles: Role[] = ['owner', 'admin', 'member'];
export const atLeast = (role: Role, minimum: Role) => rank[role] >= rank[minimum];

export const forbidden = (message: string) => new ApiError(403, message, 'FORBIDDEN');

/**
 * The admin area's one role check, an onRequest hook: it runs before the body is read or validated,
 * so an anonymous caller gets 401 and a member 403 whatever they send. The role is read from the
 * database on every request, in the request's organization: a change counts from the next request.
 */
export function requireRole(app: FastifyInstance, minimum: Role): onRequestAsyncHookHandler {
  return async function checkRole(request, reply) {
    await app.authenticate.call(app, request, reply);
    const { rows } = await app.db.query<{ role: Role; status: string }>(
      'select role, status from users where id = $1 and tenant = $2',
      [request.auth.userId, request.tenant],
    );
    const member = rows[0];
    if (!member) throw new ApiError(401, 'Your session has ended. Please log in again.', 'UNAUTHORIZED');
    if (member.status === 'suspended') throw suspendedMember();
    if (!atLeast(member.role, minimum)) {
      throw forbidden(
        minimum === 'owner'
          ? 'Only an owner of this organization can do this.'
          : 'Only an administrator of this organization can do this.',
      );
    }
    request.role = member.role;
  };
}
