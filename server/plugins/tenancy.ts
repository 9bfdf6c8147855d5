import { isIP } from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { organizationsChannel } from '../db/channels';
import { ApiError } from '../errors';
import { isApiPath } from './static';

const unknownOrganization = () => new ApiError(400, 'Unknown organization', 'UNKNOWN_ORGANIZATION');
export const disabledOrganization = () =>
  new ApiError(403, 'This organization has been disabled.', 'ORGANIZATION_DISABLED');

/** The organization a host names: its first label when it has more than two (seed-spec §4), else none. */
function hostLabel(hostname: string): string | null {
  if (!hostname || isIP(hostname)) return null;
  const labels = hostname.toLowerCase().split('.');
  return labels.length > 2 && labels[0] !== 'app' ? labels[0] : null;
}

type Known = 'active' | 'disabled' | 'unknown';

/**
 * The tenant of every request: the Organization header, or else the first label of the Host when it
 * is a known organization (so plain HTTP clients reach theirs), or else 'app'. A header naming another
 * organization than such a Host is refused; so is every API request of a disabled organization.
 */
export const tenancyPlugin = fp(async (app) => {
  // Kept briefly; the operator's command announces a change (NOTIFY) and every node forgets at once.
  const ttlMs = 5000;
  const known = new Map<string, { state: Known; until: number }>();
  const stateOf = async (subdomain: string): Promise<Known> => {
    const cached = known.get(subdomain);
    if (cached && cached.until > Date.now()) return cached.state;
    if (!/^[a-z0-9-]{1,63}$/.test(subdomain)) return 'unknown';
    const { rows } = await app.db.query<{ disabled: boolean }>(
      'select disabled from organizations where subdomain = $1',
      [subdomain],
    );
    const state: Known = !rows[0] ? 'unknown' : rows[0].disabled ? 'disabled' : 'active';
    if (known.size > 10_000) known.clear();
    known.set(subdomain, { state, until: Date.now() + ttlMs });
    return state;
  };
  const stopListening = await app.db.listen(organizationsChannel, (subdomain) => known.delete(subdomain));
  app.addHook('onClose', () => stopListening());

  const tenantOf = async (request: FastifyRequest) => {
    const api = isApiPath(request.url);
    const header = request.headers.organization;
    const named = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
    const label = hostLabel(request.hostname);
    const hostState = label ? await stateOf(label) : 'unknown';
    // The app's pages still load on a disabled organization's host: its organization check says no.
    if (hostState === 'disabled' && api) throw disabledOrganization();
    const fromHost = label && hostState === 'active' ? label : null;
    if (!named) return fromHost ?? 'app';
    const namedState = await stateOf(named);
    if (namedState === 'unknown') throw unknownOrganization();
    if (namedState === 'disabled') {
      if (api) throw disabledOrganization();
      return 'app';
    }
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
