import { isIP } from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors';

const unknownOrganization = () => new ApiError(400, 'Unknown organization', 'UNKNOWN_ORGANIZATION');

/** The organization a host names: its first label when it has more than two (seed-spec §4), else none. */
function hostLabel(hostname: string): string | null {
  if (!hostname || isIP(hostname)) return null;
  const labels = hostname.toLowerCase().split('.');
  return labels.length > 2 && labels[0] !== 'app' ? labels[0] : null;
}

/**
 * The tenant of every request: the Organization header, or else the first label of the Host when it
 * is a known organization (so plain HTTP clients reach theirs), or else 'app'. A header naming another
 * organization than such a Host is refused.
 */
export const tenancyPlugin = fp(async (app) => {
  const known = new Set<string>();
  const exists = async (subdomain: string) => {
    if (known.has(subdomain)) return true;
    if (!/^[a-z0-9-]{1,63}$/.test(subdomain)) return false;
    const { rows } = await app.db.query('select 1 from organizations where subdomain = $1', [subdomain]);
    if (rows.length) known.add(subdomain);
    return rows.length > 0;
  };

  const tenantOf = async (request: FastifyRequest) => {
    const header = request.headers.organization;
    const named = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
    const label = hostLabel(request.hostname);
    const fromHost = label && (await exists(label)) ? label : null;
    if (!named) return fromHost ?? 'app';
    if (!(await exists(named))) throw unknownOrganization();
    if (fromHost && fromHost !== named) {
      throw new ApiError(
        400,
        'The Organization header names another organization than the host.',
        'ORGANIZATION_MISMATCH',
      );
    }
    return named;
  };

  app.decorateRequest('tenant', 'app');
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.anyTenant || !request.routeOptions.url) return;
    request.tenant = await tenantOf(request);
  });
}) as FastifyPluginAsync;
