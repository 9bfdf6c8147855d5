import type { FastifyPluginAsync } from 'fastify';
import { readSso } from '../auth/oidc/store';
import { ApiError } from '../errors';
import { logoUrl, readOrganization } from './store';

const unknown = () => new ApiError(404, 'No organization has this address.', 'UNKNOWN_ORGANIZATION');
const subdomainParams = {
  type: 'object',
  properties: { subdomain: { type: 'string', maxLength: 63 } },
} as const;

/**
 * `GET /api/v1/organization/:subdomain`: the organization check's lookup (seed-spec §4), with what the
 * app shows of it (brand colour, logo, default language). A disabled organization is not found.
 */
export const organizationsPlugin: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { subdomain: string } }>(
    '/api/v1/organization/:subdomain',
    { config: { anyTenant: true }, schema: { params: subdomainParams } },
    async (request) => {
      const row = await readOrganization(app.db, request.params.subdomain.toLowerCase());
      if (!row || row.disabled) throw unknown();
      const sso = await readSso(app.db, row.subdomain);
      return {
        _id: row.id,
        subdomain: row.subdomain,
        name: row.name,
        currency: row.currency,
        brandColor: row.brand_color,
        logo: logoUrl(row),
        defaultLanguage: row.default_language,
        // The login and register screens offer "Continue with …" when the organization has SSO.
        sso: sso ? { label: sso.label } : null,
      };
    },
  );

  // Public, like the organization itself: the landing page shows it before anyone logs in. An SVG is
  // served as an image that can run nothing, even if opened on its own: no scripts, no requests.
  app.get<{ Params: { subdomain: string } }>(
    '/api/v1/organization/:subdomain/logo',
    { config: { anyTenant: true }, schema: { params: subdomainParams } },
    async (request, reply) => {
      const { rows } = await app.db.query<{
        logo: string | null;
        logo_type: string | null;
        disabled: boolean;
      }>('select logo, logo_type, disabled from organizations where subdomain = lower($1)', [
        request.params.subdomain,
      ]);
      const row = rows[0];
      if (!row || row.disabled || !row.logo || !row.logo_type)
        throw new ApiError(404, 'No logo.', 'NOT_FOUND');
      return reply
        .type(row.logo_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('content-disposition', 'inline')
        .header('cache-control', 'public, max-age=300')
        .send(Buffer.from(row.logo, 'base64'));
    },
  );
};
