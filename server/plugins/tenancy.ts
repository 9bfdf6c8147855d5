import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors';
import { readToken } from '../security/tokens';

const unauthorized = () => new ApiError(401, 'Your session has ended. Please log in again.', 'UNAUTHORIZED');

/**
 * The Organization header selects the tenant of every request (absent: 'app'); `authenticate`
 * accepts only a token of that tenant whose token version is still the user's.
 */
export const tenancyPlugin = fp(async (app) => {
  const known = new Set<string>();
  const exists = async (subdomain: string) => {
    if (known.has(subdomain)) return true;
    const { rows } = await app.db.query('select 1 from organizations where subdomain = $1', [subdomain]);
    if (rows.length) known.add(subdomain);
    return rows.length > 0;
  };

  app.decorateRequest('tenant', 'app');
  app.decorateRequest('auth', undefined as never);

  app.addHook('onRequest', async (request) => {
    const header = request.headers.organization;
    const subdomain = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() || 'app';
    request.tenant = subdomain;
    if (request.routeOptions.config?.anyTenant || !request.routeOptions.url) return;
    if (!/^[a-z0-9-]{1,63}$/.test(subdomain) || !(await exists(subdomain))) {
      throw new ApiError(400, 'Unknown organization', 'UNKNOWN_ORGANIZATION');
    }
  });

  // Token versions are read on every authenticated request: kept briefly in memory. A revocation
  // on this node is immediate; other nodes honour it within versionTtlMs.
  const versionTtlMs = 5000;
  const versions = new Map<string, { version: number | null; until: number }>();
  const currentVersion = async (userId: string, tenant: string) => {
    const key = `${tenant}:${userId}`;
    const cached = versions.get(key);
    if (cached && cached.until > Date.now()) return cached.version;
    const { rows } = await app.db.query<{ token_version: number }>(
      'select token_version from users where id = $1 and tenant = $2',
      [userId, tenant],
    );
    const version = rows[0]?.token_version ?? null;
    if (versions.size > 50_000) versions.clear();
    versions.set(key, { version, until: Date.now() + versionTtlMs });
    return version;
  };

  app.decorate('sessions', {
    async claims(request: FastifyRequest) {
      const [scheme, token] = (request.headers.authorization ?? '').split(' ');
      if (scheme !== 'Bearer' || !token) return null;
      const claims = await readToken(app.secrets.jwtSecret, token);
      if (!claims || claims.tenant !== request.tenant) return null;
      return (await currentVersion(claims.userId, claims.tenant)) === claims.version ? claims : null;
    },
    forget(userId: string, tenant: string) {
      versions.delete(`${tenant}:${userId}`);
    },
  });

  app.decorate('authenticate', async (request) => {
    const claims = await app.sessions.claims(request);
    if (!claims) throw unauthorized();
    request.auth = { userId: claims.userId, tenant: request.tenant };
  });
}) as FastifyPluginAsync;
