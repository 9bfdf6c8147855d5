import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ApiError } from '../errors';
import { readSso } from '../organizations/sso';
import { readOrganization, signupAllowance, startingBalanceOf } from '../organizations/store';
import { successResponse } from '../schemas';
import { checkPassword, hashPassword } from '../security/passwords';
import { checkNewPassword, normalizeDisplayName, normalizeUsername } from '../users/names';
import { invalidCode } from './codes';
import { passwordRefused } from './oidc/store';
import { tokenResponse } from './schemas';
import { suspendedMember } from './sessions';
import {
  changePassword,
  createAccount,
  findLoginAccount,
  registeredEmail,
  resetPassword,
  takenBy,
} from './store';

const email = { type: 'string', minLength: 1, maxLength: 254 } as const;
const password = { type: 'string', minLength: 1, maxLength: 128 } as const;
const otp = { type: 'string', minLength: 1, maxLength: 12 } as const;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const invalidLogin = { status: 401, error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' };
const bodyOf = <const Required extends readonly string[], const Properties>(
  required: Required,
  properties: Properties,
) => ({ type: 'object', required, additionalProperties: false, properties }) as const;
const sentResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['sent'],
  properties: { sent: { type: 'boolean' } },
} as const;
/** SSO required: this organization's members sign in through its identity provider, owners alone by password. */
async function ssoRequired(db: Parameters<typeof readSso>[0], tenant: string) {
  const sso = await readSso(db, tenant);
  return new ApiError(
    403,
    `This organization signs in through its identity provider: use “${sso?.label ?? 'single sign-on'}” on the login screen.`,
    'SSO_REQUIRED',
  );
}
const checkEmail = (address: string) => {
  if (!emailPattern.test(address)) throw new ApiError(400, 'Invalid email address', 'INVALID_EMAIL', 'email');
};

/**
 * Auth of seed-spec §7 plus the public key, one-time codes, sessions and self-service passwords:
 * argon2id, HS256 tokens naming a revocable session, limits counted in the database.
 */
export const authPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const { rateLimits } = app.config;
  const perIpPerHour = { rateLimit: { max: rateLimits.otpPerIpPerHour, timeWindow: '1 hour' } };

  const mailCode = (to: string, code: string, what: string) =>
    app.sendMail({
      to,
      subject: `Your Parley code: ${code}`,
      text: `Your Parley code is ${code}\n\nUse it to ${what}. It is valid for ${app.codes.lifetimeMinutes} minutes and works once. If you did not ask for it, ignore this message.\n`,
    });
  const codesOverLimit = async (tenant: string, address: string) =>
    (await app.codes.sentLastHour(tenant, address)) >= rateLimits.otpPerEmailPerHour;

  app.get(
    '/auth/public-key',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['key'],
            properties: { key: { type: 'string' } },
          },
        },
      },
    },
    async () => ({ key: app.secrets.publicKeyPem }),
  );

  app.post(
    '/auth/otp',
    { config: perIpPerHour, schema: { body: bodyOf(['email'], { email }), response: { 200: sentResponse } } },
    async (request) => {
      const address = request.body.email.trim();
      checkEmail(address);
      const { role } = await signupAllowance(app.db, request.tenant, address);
      if (await passwordRefused(app.db, request.tenant, role))
        throw await ssoRequired(app.db, request.tenant);
      if (await codesOverLimit(request.tenant, address)) {
        throw new ApiError(
          429,
          'Too many codes asked for this address. Try again in an hour.',
          'RATE_LIMITED',
        );
      }
      await mailCode(address, await app.codes.issue(request.tenant, address, 'signup'), 'finish signing up');
      return { sent: true };
    },
  );

  app.post(
    '/auth/signup',
    {
      config: perIpPerHour,
      schema: {
        body: bodyOf(['username', 'displayName', 'email', 'password', 'otp'], {
          username: { type: 'string', minLength: 1, maxLength: 64 },
          displayName: { type: 'string', minLength: 1, maxLength: 256 },
          email,
          password,
          otp,
        }),
        response: { 200: tokenResponse },
      },
    },
    async (request) => {
      const { tenant } = request;
      const username = normalizeUsername(request.body.username);
      const displayName = normalizeDisplayName(request.body.displayName);
      const address = request.body.email.trim();
      checkEmail(address);
      checkNewPassword(request.body.password);
      const { role } = await signupAllowance(app.db, tenant, address);
      if (await passwordRefused(app.db, tenant, role)) throw await ssoRequired(app.db, tenant);
      const codeId = await app.codes.check(tenant, address, 'signup', request.body.otp);
      const organization = await readOrganization(app.db, tenant);
      const startingBalance = organization
        ? startingBalanceOf(organization, app.config.startingBalance)
        : app.config.startingBalance;

      const passwordHash = await hashPassword(request.body.password);
      const userId = await app.db.transaction(async (tx) => {
        await app.codes.claim(tx, codeId);
        const taken = await takenBy(tx, tenant, address, username);
        if (taken === 'email')
          throw new ApiError(
            409,
            'This email address is already registered. Log in instead.',
            'EMAIL_TAKEN',
            'email',
          );
        if (taken === 'username')
          throw new ApiError(
            409,
            'This username is taken. Choose another one.',
            'USERNAME_TAKEN',
            'username',
          );
        return createAccount(tx, {
          tenant,
          username,
          displayName,
          email: address,
          passwordHash,
          startingBalance,
          role,
        });
      });
      return { token: await app.sessions.open({ userId, tenant }, 'password') };
    },
  );

  app.post(
    '/auth/login',
    {
      config: { decryptFailure: invalidLogin, rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { body: bodyOf(['email', 'password'], { email, password }), response: { 200: tokenResponse } },
    },
    async (request) => {
      const address = request.body.email.trim().toLowerCase();
      const limit = await app.loginLimits.attempt(request.tenant, address, request.ip);
      const user = await findLoginAccount(app.db, request.tenant, address);
      if (!(await checkPassword(user?.passwordHash ?? null, request.body.password)) || !user) {
        throw new ApiError(invalidLogin.status, invalidLogin.error, invalidLogin.code);
      }
      await app.loginLimits.succeeded(limit);
      // Told only to whoever knows the password.
      if (user.status === 'suspended') throw suspendedMember();
      // SSO required: owners keep their password as the way in should the identity provider fail.
      if (await passwordRefused(app.db, request.tenant, user.role))
        throw await ssoRequired(app.db, request.tenant);
      return { token: await app.sessions.open({ userId: user.id, tenant: request.tenant }, 'password') };
    },
  );

  // Always 200: the login check reads `verified`, and a 401 here would route the user twice.
  app.get(
    '/auth/verify',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['verified'],
            properties: { verified: { type: 'integer', enum: [0, 1] } },
          },
        },
      },
    },
    async (request) => ({ verified: (await app.sessions.claims(request)) ? 1 : 0 }) as const,
  );

  const signedIn = { preHandler: app.authenticate, schema: { response: { 200: successResponse } } };
  app.post('/auth/logout', signedIn, async (request) => {
    await app.sessions.revoke(request.auth.sessionId);
    return { success: true };
  });

  app.post('/auth/logout-everywhere', signedIn, async (request) => {
    await app.sessions.revokeAll(request.auth);
    return { success: true };
  });

  app.post(
    '/auth/password/forgot',
    { config: perIpPerHour, schema: { body: bodyOf(['email'], { email }), response: { 200: sentResponse } } },
    async (request) => {
      const address = request.body.email.trim();
      checkEmail(address);
      // The same answer whether or not the address has an account, and whether or not it was mailed.
      const registered = await registeredEmail(app.db, request.tenant, address);
      if (registered && !(await codesOverLimit(request.tenant, address))) {
        const code = await app.codes.issue(request.tenant, registered, 'reset');
        await mailCode(registered, code, 'choose a new password');
      }
      return { sent: true };
    },
  );

  app.post(
    '/auth/password/reset',
    {
      config: perIpPerHour,
      schema: {
        body: bodyOf(['email', 'otp', 'password'], { email, otp, password }),
        response: { 200: tokenResponse },
      },
    },
    async (request) => {
      const { tenant } = request;
      const address = request.body.email.trim();
      checkEmail(address);
      checkNewPassword(request.body.password);
      const codeId = await app.codes.check(tenant, address, 'reset', request.body.otp);
      const passwordHash = await hashPassword(request.body.password);
      const userId = await app.db.transaction(async (tx) => {
        await app.codes.claim(tx, codeId);
        const account = await resetPassword(tx, tenant, address, passwordHash);
        if (!account) throw invalidCode();
        if (account.status === 'suspended') throw suspendedMember();
        if (await passwordRefused(tx, tenant, account.role)) throw await ssoRequired(tx, tenant);
        return account.id;
      });
      await app.sessions.revokeAll({ userId, tenant });
      return { token: await app.sessions.open({ userId, tenant }, 'password') };
    },
  );

  app.post(
    '/auth/password/change',
    {
      preHandler: app.authenticate,
      schema: {
        body: bodyOf(['password', 'newPassword'], { password, newPassword: password }),
        response: { 200: tokenResponse },
      },
    },
    async (request) => {
      checkNewPassword(request.body.newPassword, 'newPassword');
      const owner = request.auth;
      if (!(await app.checkAccountPassword(request, request.body.password))) {
        throw new ApiError(400, 'Your current password is not right.', 'WRONG_PASSWORD', 'password');
      }
      await changePassword(app.db, owner, await hashPassword(request.body.newPassword));
      // This session goes on (requests in flight keep working); every other one ends.
      await app.sessions.revokeAll(owner, owner.sessionId);
      return { token: await app.sessions.renew(owner) };
    },
  );
};
