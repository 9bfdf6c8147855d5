import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors';
import { notify } from '../notifications/store';
import { readSso } from '../organizations/sso';
import { readOrganization, signupAllowance, startingBalanceOf } from '../organizations/store';
import { checkPassword, hashPassword } from '../security/passwords';
import { checkNewPassword, normalizeDisplayName, normalizeUsername } from '../users/names';
import { invalidCode } from './codes';
import { passwordRefused } from './oidc/store';
import { suspendedMember } from './sessions';

const email = { type: 'string', minLength: 1, maxLength: 254 } as const;
const password = { type: 'string', minLength: 1, maxLength: 128 } as const;
const otp = { type: 'string', minLength: 1, maxLength: 12 } as const;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const invalidLogin = { status: 401, error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' };
const bodyOf = (required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  required,
  additionalProperties: false,
  properties,
});
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
export const authPlugin: FastifyPluginAsync = async (app) => {
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
    { schema: { response: { 200: { type: 'object', properties: { key: { type: 'string' } } } } } },
    async () => ({ key: app.secrets.publicKeyPem }),
  );

  app.post<{ Body: { email: string } }>(
    '/auth/otp',
    { config: perIpPerHour, schema: { body: bodyOf(['email'], { email }) } },
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

  app.post<{ Body: { username: string; displayName: string; email: string; password: string; otp: string } }>(
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
        const { rows: taken } = await tx.query<{ email_taken: boolean }>(
          'select lower(email) = lower($2) as email_taken from users where tenant = $1 and (lower(email) = lower($2) or lower(username) = lower($3))',
          [tenant, address, username],
        );
        if (taken.some((row) => row.email_taken))
          throw new ApiError(
            409,
            'This email address is already registered. Log in instead.',
            'EMAIL_TAKEN',
            'email',
          );
        if (taken.length)
          throw new ApiError(
            409,
            'This username is taken. Choose another one.',
            'USERNAME_TAKEN',
            'username',
          );
        const { rows } = await tx.query<{ id: string }>(
          `insert into users (tenant, username, display_name, email, password_hash, balance, currency, role)
           select $1, $2, $3, $4, $5, $6, currency, $7 from organizations where subdomain = $1 returning id`,
          [tenant, username, displayName, address, passwordHash, startingBalance, role],
        );
        const id = rows[0].id;
        // The invitation is used up: the member is in.
        await tx.query('delete from invitations where tenant = $1 and email = lower($2)', [tenant, address]);
        if (startingBalance > 0) {
          await tx.query(
            'insert into transactions (tenant, user_id, amount, description) values ($1, $2, $3, $4)',
            [tenant, id, startingBalance, 'Welcome credit'],
          );
        }
        await notify(tx, {
          tenant,
          userId: id,
          title: 'Welcome to Parley',
          body: 'Your account is ready, with a welcome credit. Pick a bot and say hello.',
        });
        return id;
      });
      return { token: await app.sessions.open({ userId, tenant }, 'password') };
    },
  );

  app.post<{ Body: { email: string; password: string } }>(
    '/auth/login',
    {
      config: { decryptFailure: invalidLogin, rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { body: bodyOf(['email', 'password'], { email, password }) },
    },
    async (request) => {
      const address = request.body.email.trim().toLowerCase();
      const limit = await app.loginLimits.attempt(request.tenant, address, request.ip);
      const { rows } = await app.db.query<{
        id: string;
        password_hash: string;
        status: string;
        role: string;
      }>('select id, password_hash, status, role from users where tenant = $1 and lower(email) = $2', [
        request.tenant,
        address,
      ]);
      const user = rows[0];
      if (!(await checkPassword(user?.password_hash ?? null, request.body.password)) || !user) {
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
  app.get('/auth/verify', async (request) => ({ verified: (await app.sessions.claims(request)) ? 1 : 0 }));

  app.post('/auth/logout', { preHandler: app.authenticate }, async (request) => {
    await app.sessions.revoke(request.auth.sessionId);
    return { success: true };
  });

  app.post('/auth/logout-everywhere', { preHandler: app.authenticate }, async (request) => {
    await app.sessions.revokeAll(request.auth);
    return { success: true };
  });

  app.post<{ Body: { email: string } }>(
    '/auth/password/forgot',
    { config: perIpPerHour, schema: { body: bodyOf(['email'], { email }) } },
    async (request) => {
      const address = request.body.email.trim();
      checkEmail(address);
      // The same answer whether or not the address has an account, and whether or not it was mailed.
      const { rows } = await app.db.query<{ email: string }>(
        'select email from users where tenant = $1 and lower(email) = lower($2)',
        [request.tenant, address],
      );
      if (rows[0] && !(await codesOverLimit(request.tenant, address))) {
        const code = await app.codes.issue(request.tenant, rows[0].email, 'reset');
        await mailCode(rows[0].email, code, 'choose a new password');
      }
      return { sent: true };
    },
  );

  app.post<{ Body: { email: string; otp: string; password: string } }>(
    '/auth/password/reset',
    {
      config: perIpPerHour,
      schema: { body: bodyOf(['email', 'otp', 'password'], { email, otp, password }) },
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
        const { rows } = await tx.query<{ id: string; status: string; role: string }>(
          'update users set password_hash = $3 where tenant = $1 and lower(email) = lower($2) returning id, status, role',
          [tenant, address, passwordHash],
        );
        if (!rows[0]) throw invalidCode();
        if (rows[0].status === 'suspended') throw suspendedMember();
        if (await passwordRefused(tx, tenant, rows[0].role)) throw await ssoRequired(tx, tenant);
        return rows[0].id;
      });
      await app.sessions.revokeAll({ userId, tenant });
      return { token: await app.sessions.open({ userId, tenant }, 'password') };
    },
  );

  app.post<{ Body: { password: string; newPassword: string } }>(
    '/auth/password/change',
    {
      preHandler: app.authenticate,
      schema: { body: bodyOf(['password', 'newPassword'], { password, newPassword: password }) },
    },
    async (request) => {
      checkNewPassword(request.body.newPassword, 'newPassword');
      const owner = request.auth;
      if (!(await app.checkAccountPassword(request, request.body.password))) {
        throw new ApiError(400, 'Your current password is not right.', 'WRONG_PASSWORD', 'password');
      }
      await app.db.query('update users set password_hash = $3 where id = $1 and tenant = $2', [
        owner.userId,
        owner.tenant,
        await hashPassword(request.body.newPassword),
      ]);
      // This session goes on (requests in flight keep working); every other one ends.
      await app.sessions.revokeAll(owner, owner.sessionId);
      return { token: await app.sessions.renew(owner) };
    },
  );
};
