import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors';
import { notify } from '../notifications/notify';
import { FailureLimiter } from '../security/failureLimiter';
import { checkPassword, hashPassword } from '../security/passwords';
import { signToken } from '../security/tokens';

const codeLifetimeMinutes = 10;
const codeAttempts = 5;
const email = { type: 'string', minLength: 1, maxLength: 254 } as const;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const invalidLogin = { status: 401, error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' };
const invalidCode = () =>
  new ApiError(400, 'The code is wrong or has expired. Ask for a new one.', 'INVALID_CODE');

/** Auth of seed-spec §7 plus the public key and the one-time code: argon2id, HS256 tokens, rate limits. */
export const authPlugin: FastifyPluginAsync = async (app) => {
  const { rateLimits } = app.config;
  const hashCode = (tenant: string, address: string, code: string) =>
    createHmac('sha256', app.secrets.jwtSecret)
      .update(`${tenant}\n${address.toLowerCase()}\n${code}`)
      .digest('hex');
  const loginFailures = new FailureLimiter(rateLimits.loginFailures, 15 * 60_000);

  app.get(
    '/auth/public-key',
    { schema: { response: { 200: { type: 'object', properties: { key: { type: 'string' } } } } } },
    async () => ({
      key: app.secrets.publicKeyPem,
    }),
  );

  app.post<{ Body: { email: string } }>(
    '/auth/otp',
    {
      config: { rateLimit: { max: rateLimits.otpPerIpPerHour, timeWindow: '1 hour' } },
      schema: {
        body: { type: 'object', required: ['email'], additionalProperties: false, properties: { email } },
      },
    },
    async (request) => {
      const address = request.body.email.trim();
      if (!emailPattern.test(address)) throw new ApiError(400, 'Invalid email address', 'INVALID_EMAIL');
      const { rows } = await app.db.query<{ count: string }>(
        "select count(*) from one_time_codes where tenant = $1 and lower(email) = lower($2) and created_at > now() - interval '1 hour'",
        [request.tenant, address],
      );
      if (Number(rows[0].count) >= rateLimits.otpPerEmailPerHour) {
        throw new ApiError(
          429,
          'Too many codes asked for this address. Try again in an hour.',
          'RATE_LIMITED',
        );
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await app.db.transaction(async (tx) => {
        // A new code replaces the older ones.
        await tx.query(
          'update one_time_codes set used = true where tenant = $1 and lower(email) = lower($2) and not used',
          [request.tenant, address],
        );
        await tx.query(
          `insert into one_time_codes (tenant, email, code_hash, expires_at) values ($1, $2, $3, now() + interval '${codeLifetimeMinutes} minutes')`,
          [request.tenant, address, hashCode(request.tenant, address, code)],
        );
      });
      await app.sendMail({
        to: address,
        subject: `Your Parley code: ${code}`,
        text: `Your Parley code is ${code}\n\nIt is valid for ${codeLifetimeMinutes} minutes and works once. If you did not ask for it, ignore this message.\n`,
      });
      return { sent: true };
    },
  );

  app.post<{ Body: { username: string; displayName: string; email: string; password: string; otp: string } }>(
    '/auth/signup',
    {
      config: { rateLimit: { max: rateLimits.otpPerIpPerHour, timeWindow: '1 hour' } },
      schema: {
        body: {
          type: 'object',
          required: ['username', 'displayName', 'email', 'password', 'otp'],
          additionalProperties: false,
          properties: {
            username: { type: 'string', minLength: 1, maxLength: 32 },
            displayName: { type: 'string', minLength: 1, maxLength: 80 },
            email,
            password: { type: 'string', minLength: 1, maxLength: 128 },
            otp: { type: 'string', minLength: 1, maxLength: 12 },
          },
        },
      },
    },
    async (request) => {
      const { tenant } = request;
      const username = request.body.username.trim();
      const displayName = request.body.displayName.trim();
      const address = request.body.email.trim();
      const { password, otp } = request.body;
      if (!/^[\p{L}\p{N}_.-]{3,32}$/u.test(username)) {
        throw new ApiError(
          400,
          'A username has 3 to 32 letters, digits, dots, dashes or underscores.',
          'INVALID_USERNAME',
        );
      }
      if (!displayName || /\p{Cc}/u.test(displayName))
        throw new ApiError(400, 'Please fill in displayName.', 'INVALID_INPUT');
      if (!emailPattern.test(address)) throw new ApiError(400, 'Invalid email address', 'INVALID_EMAIL');
      if (password.length < 8)
        throw new ApiError(400, 'A password needs at least 8 characters.', 'WEAK_PASSWORD');

      const { rows: codes } = await app.db.query<{
        id: string;
        code_hash: string;
        attempts: number;
        live: boolean;
      }>(
        `select id, code_hash, attempts, expires_at > now() as live from one_time_codes
         where tenant = $1 and lower(email) = lower($2) and not used order by created_at desc limit 1`,
        [tenant, address],
      );
      const stored = codes[0];
      if (!stored?.live || stored.attempts >= codeAttempts) throw invalidCode();
      const given = Buffer.from(hashCode(tenant, address, otp.trim()), 'hex');
      if (!timingSafeEqual(Buffer.from(stored.code_hash, 'hex'), given)) {
        // The fifth wrong try burns the code.
        await app.db.query(
          'update one_time_codes set attempts = attempts + 1, used = attempts + 1 >= $2 where id = $1',
          [stored.id, codeAttempts],
        );
        throw invalidCode();
      }

      const passwordHash = await hashPassword(password);
      const userId = await app.db.transaction(async (tx) => {
        // Single use: only one signup can take the code, even when two race.
        const { rows: claimed } = await tx.query(
          'update one_time_codes set used = true where id = $1 and not used returning id',
          [stored.id],
        );
        if (!claimed.length) throw invalidCode();
        const { rows: taken } = await tx.query<{ email_taken: boolean }>(
          'select lower(email) = lower($2) as email_taken from users where tenant = $1 and (lower(email) = lower($2) or lower(username) = lower($3))',
          [tenant, address, username],
        );
        if (taken.some((row) => row.email_taken))
          throw new ApiError(409, 'This email address is already registered. Log in instead.', 'EMAIL_TAKEN');
        if (taken.length)
          throw new ApiError(409, 'This username is taken. Choose another one.', 'USERNAME_TAKEN');
        const { rows } = await tx.query<{ id: string }>(
          `insert into users (tenant, username, display_name, email, password_hash, balance, currency)
           select $1, $2, $3, $4, $5, $6, currency from organizations where subdomain = $1 returning id`,
          [tenant, username, displayName, address, passwordHash, app.config.startingBalance],
        );
        const id = rows[0].id;
        if (app.config.startingBalance > 0) {
          await tx.query(
            'insert into transactions (tenant, user_id, amount, description) values ($1, $2, $3, $4)',
            [tenant, id, app.config.startingBalance, 'Welcome credit'],
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
      return { token: await signToken(app.secrets.jwtSecret, { userId, tenant, version: 0 }) };
    },
  );

  app.post<{ Body: { email: string; password: string } }>(
    '/auth/login',
    {
      config: { decryptFailure: invalidLogin, rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        body: {
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: { email, password: { type: 'string', minLength: 1, maxLength: 128 } },
        },
      },
    },
    async (request) => {
      const address = request.body.email.trim().toLowerCase();
      const keys = [`account:${request.tenant}:${address}`, `ip:${request.ip}`];
      const wait = loginFailures.blockedFor(keys);
      if (wait > 0) {
        throw new ApiError(
          429,
          `Too many failed attempts. Try again in ${Math.ceil(wait / 60_000)} minutes.`,
          'RATE_LIMITED',
        );
      }
      const { rows } = await app.db.query<{ id: string; password_hash: string; token_version: number }>(
        'select id, password_hash, token_version from users where tenant = $1 and lower(email) = $2',
        [request.tenant, address],
      );
      const user = rows[0];
      if (!(await checkPassword(user?.password_hash ?? null, request.body.password)) || !user) {
        loginFailures.record(keys);
        throw new ApiError(invalidLogin.status, invalidLogin.error, invalidLogin.code);
      }
      loginFailures.clear(keys[0]);
      return {
        token: await signToken(app.secrets.jwtSecret, {
          userId: user.id,
          tenant: request.tenant,
          version: user.token_version,
        }),
      };
    },
  );

  // Always 200: the login check reads `verified`, and a 401 here would route the user twice.
  app.get('/auth/verify', async (request) => ({ verified: (await app.sessions.claims(request)) ? 1 : 0 }));

  app.post('/auth/logout-everywhere', { preHandler: app.authenticate }, async (request) => {
    await app.db.query('update users set token_version = token_version + 1 where id = $1 and tenant = $2', [
      request.auth.userId,
      request.tenant,
    ]);
    app.sessions.forget(request.auth.userId, request.tenant);
    return { success: true };
  });
};
