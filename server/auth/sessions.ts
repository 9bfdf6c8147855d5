import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';
import { repeat } from '../repeat';
import { readToken, signToken, type TokenClaims, tokenLifetimeHours } from './tokens';

const unauthorized = () => new ApiError(401, 'Your session has ended. Please log in again.', 'UNAUTHORIZED');
export const suspendedMember = () =>
  new ApiError(
    403,
    'Your account in this organization is suspended. Ask an administrator of the organization.',
    'SUSPENDED',
  );

type SessionState = 'live' | 'ended' | 'suspended';

/** How a session was opened: by a password (login, signup, reset), or through the organization's IdP. */
export type SignedInWith = 'password' | 'sso';

/**
 * Sessions in the database: a token is valid while its session is neither revoked nor expired and
 * belongs to the request's organization. `authenticate` is the preHandler of every private route.
 */
export const sessionsPlugin = fp(async (app) => {
  // Checked on every authenticated request, so kept briefly in memory. A revocation is announced to
  // every node (NOTIFY), which forgets what it kept at once; validityTtlMs bounds the lag should a
  // notification be lost with a broken connection.
  const validityTtlMs = 5000;
  const validity = new Map<string, { userId: string; tenant: string; state: SessionState; until: number }>();
  const stateOf = async (claims: TokenClaims): Promise<SessionState> => {
    const cached = validity.get(claims.sessionId);
    if (cached && cached.until > Date.now()) return cached.state;
    const { rows } = await app.db.query<{ live: boolean; suspended: boolean }>(
      `select s.revoked_at is null and s.expires_at > now() as live, u.status = 'suspended' as suspended
       from sessions s join users u on u.id = s.user_id and u.tenant = s.tenant
       where s.id = $1 and s.user_id = $2 and s.tenant = $3`,
      [claims.sessionId, claims.userId, claims.tenant],
    );
    // A suspended member is told so on every request, though the suspension also ended their sessions.
    const state: SessionState = rows[0]?.suspended ? 'suspended' : rows[0]?.live ? 'live' : 'ended';
    if (validity.size > 50_000) validity.clear();
    validity.set(claims.sessionId, {
      userId: claims.userId,
      tenant: claims.tenant,
      state,
      until: Date.now() + validityTtlMs,
    });
    return state;
  };
  const forgetUser = (userId: string) => {
    for (const [sessionId, entry] of validity) if (entry.userId === userId) validity.delete(sessionId);
  };
  const forgetTenant = (tenant: string) => {
    for (const [sessionId, entry] of validity) if (entry.tenant === tenant) validity.delete(sessionId);
  };
  const channel = 'parley_sessions';
  const stopListening = await app.db.listen(channel, (payload) => {
    const { session, user, tenant } = JSON.parse(payload) as {
      session?: string;
      user?: string;
      tenant?: string;
    };
    if (session) validity.delete(session);
    if (user) forgetUser(user);
    if (tenant) forgetTenant(tenant);
  });
  app.addHook('onClose', () => stopListening());
  const announce = (revoked: { session: string } | { user: string } | { tenant: string }, db: Db = app.db) =>
    db.query('select pg_notify($1, $2)', [channel, JSON.stringify(revoked)]);

  /** The request's token and its session's state: live, ended (or no valid token), or its member suspended. */
  const checked = async (
    request: FastifyRequest,
  ): Promise<{ claims: TokenClaims | null; state: SessionState }> => {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (scheme !== 'Bearer' || !token) return { claims: null, state: 'ended' };
    const claims = await readToken(app.secrets.jwtSecret, token);
    if (!claims || claims.tenant !== request.tenant) return { claims: null, state: 'ended' };
    return { claims, state: await stateOf(claims) };
  };

  app.decorate('sessions', {
    async open(owner: Owner, via: SignedInWith) {
      const { rows } = await app.db.query<{ id: string }>(
        `insert into sessions (tenant, user_id, via, expires_at) values ($1, $2, $3, now() + interval '${tokenLifetimeHours} hours') returning id`,
        [owner.tenant, owner.userId, via],
      );
      return signToken(app.secrets.jwtSecret, { ...owner, sessionId: rows[0].id });
    },
    /** A fresh token of the same session. */
    renew(claims: TokenClaims) {
      return signToken(app.secrets.jwtSecret, claims);
    },
    async claims(request: FastifyRequest) {
      const { claims, state } = await checked(request);
      return state === 'live' ? claims : null;
    },
    async revoke(sessionId: string) {
      await app.db.query('update sessions set revoked_at = now() where id = $1 and revoked_at is null', [
        sessionId,
      ]);
      validity.delete(sessionId);
    },
    async forget(userId: string) {
      forgetUser(userId);
      await announce({ user: userId });
    },
    async revokeAll(owner: Owner, except?: string) {
      await app.db.query(
        'update sessions set revoked_at = now() where user_id = $1 and tenant = $2 and revoked_at is null and id <> $3',
        [owner.userId, owner.tenant, except ?? ''],
      );
      forgetUser(owner.userId);
      await announce({ user: owner.userId });
    },
    async endPasswordSessions(db: Db, tenant: string) {
      const { rows } = await db.query(
        `update sessions s set revoked_at = now() from users u
         where s.tenant = $1 and s.via = 'password' and s.revoked_at is null and s.expires_at > now()
           and u.id = s.user_id and u.tenant = s.tenant and u.role <> 'owner'
         returning s.id`,
        [tenant],
      );
      forgetTenant(tenant);
      // In the caller's transaction, the notification goes out when it commits.
      await announce({ tenant }, db);
      return rows.length;
    },
  });

  app.decorate('authenticate', async (request) => {
    const { claims, state } = await checked(request);
    if (state === 'suspended') throw suspendedMember();
    if (!claims || state !== 'live') throw unauthorized();
    request.auth = { userId: claims.userId, tenant: request.tenant, sessionId: claims.sessionId };
  });
  app.decorateRequest('auth', undefined as never);

  // Expired and long-revoked sessions are of no use to anyone.
  repeat(app, 3_600_000, 'pruning sessions', () =>
    app.db.query("delete from sessions where expires_at < now() - interval '1 day'"),
  );
}) as FastifyPluginAsync;
