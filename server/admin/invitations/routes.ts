import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyRequest } from 'fastify';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { organizationAddress } from '../../organizations/address';
import { readOrganization } from '../../organizations/store';
import { idParams, objectOf, successResponse } from '../../schemas';
import { forbidden, roles } from '../requireRole';
import {
  type Invitation,
  invitationMinutes,
  invitationNotFound,
  isMember,
  listInvitations,
  removeInvitation,
  renewInvitation,
  saveInvitation,
} from './store';

const invitationSchema = objectOf(
  {
    _id: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string', enum: roles },
    invitedAt: { type: 'string' },
    expiresAt: { type: 'string' },
  },
  ['_id', 'email', 'role', 'invitedAt', 'expiresAt'],
);
const sentSchema = objectOf({ sent: { type: 'boolean' } }, ['sent']);

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** When an invitation expires, as its mail says it: a date anyone reads, in UTC. */
const expiry = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });

/**
 * Invitations: invite an address with a role (`/member/invite`), list those not accepted yet, send
 * one again (a new code, a new time; the old code stops working) or revoke it (its code stops
 * working at once). Each mail links to the organization's sign-up page with the address filled in.
 */
export const invitationsAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  async function mailInvitation(request: FastifyRequest, invitation: Invitation, code: string) {
    const organization = await readOrganization(app.db, request.tenant);
    const name = organization?.name ?? request.tenant;
    const signUp = new URL('/register', organizationAddress(app.config, request, request.tenant));
    signUp.searchParams.set('email', invitation.email);
    const as = invitation.role === 'member' ? 'a member' : `an ${invitation.role}`;
    await app.sendMail({
      to: invitation.email,
      subject: `You are invited to ${name} on Parley`,
      text:
        `You are invited to join ${name} on Parley as ${as}.\n\n` +
        `Sign up here, with your address filled in:\n${signUp.href}\n\n` +
        `Your Parley code is ${code}\n\n` +
        `The code works once. The invitation expires on ${expiry.format(new Date(invitation.expiresAt))} (UTC); ` +
        'after that, ask whoever invited you to send it again.\n',
    });
  }

  app.get(
    '/invitation',
    { schema: { response: { 200: { type: 'array', items: invitationSchema } } } },
    (request) => listInvitations(app.db, request.tenant),
  );

  app.post(
    '/member/invite',
    {
      schema: {
        body: objectOf(
          { email: { type: 'string', minLength: 1, maxLength: 254 }, role: { type: 'string', enum: roles } },
          ['email', 'role'],
        ),
        response: { 200: sentSchema },
      },
    },
    async (request) => {
      const email = request.body.email.trim();
      const { role } = request.body;
      if (!emailPattern.test(email))
        throw new ApiError(400, 'Invalid email address', 'INVALID_EMAIL', 'email');
      if (role === 'owner' && request.role !== 'owner') throw forbidden('Only an owner can invite an owner.');
      if (await isMember(app.db, request.tenant, email))
        throw new ApiError(409, 'This address belongs to a member already.', 'MEMBER_EXISTS', 'email');
      // The invitation and its code together: both expire at the same time.
      const { invitation, code } = await app.db.transaction(async (tx) => {
        const invitation = await saveInvitation(tx, request.tenant, {
          email,
          role,
          invitedBy: request.auth.userId,
        });
        await audit(tx, request, {
          action: 'member.invite',
          target: invitation._id,
          before: null,
          after: { email: invitation.email, role, expiresAt: invitation.expiresAt },
        });
        const code = await app.codes.issue(request.tenant, email, 'signup', invitationMinutes, tx);
        return { invitation, code };
      });
      await mailInvitation(request, invitation, code);
      return { sent: true };
    },
  );

  app.post(
    '/invitation/:id/resend',
    { schema: { params: idParams, response: { 200: sentSchema } } },
    async (request) => {
      const { tenant } = request;
      const { invitation, code } = await app.db.transaction(async (tx) => {
        // Locked: a revoke at the same moment waits, then finds the new code to withdraw.
        const renewed = await renewInvitation(tx, tenant, request.params.id);
        if (!renewed) throw invitationNotFound();
        const { invitation, previous } = renewed;
        if (
          (await app.codes.sentLastHour(tenant, invitation.email, tx)) >=
          app.config.rateLimits.otpPerEmailPerHour
        )
          throw new ApiError(
            429,
            'Too many codes sent to this address. Try again in an hour.',
            'RATE_LIMITED',
          );
        await audit(tx, request, {
          action: 'invitation.resend',
          target: invitation._id,
          before: { expiresAt: previous },
          after: { expiresAt: invitation.expiresAt },
        });
        // Replaces the invitation's code: the one mailed before stops working.
        const code = await app.codes.issue(tenant, invitation.email, 'signup', invitationMinutes, tx);
        return { invitation, code };
      });
      await mailInvitation(request, invitation, code);
      return { sent: true };
    },
  );

  app.delete(
    '/invitation/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      const { tenant } = request;
      await app.db.transaction(async (tx) => {
        const invitation = await removeInvitation(tx, tenant, request.params.id);
        if (!invitation) throw invitationNotFound();
        // Its code stops working at once, whatever the organization's sign-up policy.
        await app.codes.withdraw(tenant, invitation.email, 'signup', tx);
        await audit(tx, request, {
          action: 'invitation.revoke',
          target: invitation._id,
          before: { email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt },
          after: null,
        });
      });
      return { success: true };
    },
  );
};
