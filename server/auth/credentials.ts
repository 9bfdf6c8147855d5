import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { repeat } from '../repeat';
import { createCounters } from '../security/counters';
import { checkPassword } from '../security/passwords';
import { createCodes } from './codes';
import { createLoginLimits } from './loginLimits';

/** One-time codes, the database counters and the login limits, for the auth and account routes. */
export const credentialsPlugin = fp(async (app) => {
  const counters = createCounters(app.db);
  const { rateLimits } = app.config;
  app.decorate('codes', createCodes(app.db, app.secrets.jwtSecret));
  app.decorate('counters', counters);
  app.decorate(
    'loginLimits',
    createLoginLimits(counters, {
      perAccount: rateLimits.loginFailures,
      perAddress: rateLimits.loginFailuresPerIp,
    }),
  );
  // The signed-in user's password, checked under the same limits as a login.
  app.decorate('checkAccountPassword', async (request: FastifyRequest, password: string) => {
    const { rows } = await app.db.query<{ email: string; password_hash: string }>(
      'select email, password_hash from users where id = $1 and tenant = $2',
      [request.auth.userId, request.auth.tenant],
    );
    const limit = await app.loginLimits.attempt(request.auth.tenant, rows[0]?.email ?? '', request.ip);
    const right = await checkPassword(rows[0]?.password_hash ?? null, password);
    if (right) await app.loginLimits.succeeded(limit);
    return right;
  });

  repeat(app, 3_600_000, 'pruning counters', counters.prune);
}) as FastifyPluginAsync;
