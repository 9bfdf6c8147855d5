import { readdirSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { storageBytes } from '../../files/store';
import { checkBrandColor, checkLogo, logoMaxBytes } from '../../organizations/logo';
import { logoUrl, type OrganizationRow, readOrganization } from '../../organizations/store';
import { catalogsFolder } from '../../paths';
import { cleanName, objectOf } from '../../schemas';

/** English and the languages of the server's catalogs (the app's 12). */
const languages = [
  'en',
  ...readdirSync(catalogsFolder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -5)),
].sort();
const currencies = new Set(Intl.supportedValuesOf('currency'));
const domainPattern = '^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$';

export type Signup = 'open' | 'invite' | 'domains';
interface SettingsBody {
  name?: string;
  brandColor?: string | null;
  logo?: { type: 'image/png' | 'image/svg+xml'; data: string } | null;
  defaultLanguage?: string;
  currency?: string;
  startingBalance?: number | null;
  signup?: Signup;
  allowedDomains?: string[];
  storageQuotaMb?: number;
  apiAccess?: boolean;
  publicSharing?: boolean;
}

const settingsOf = (row: OrganizationRow, fallbackBalance: number) => ({
  name: row.name,
  brandColor: row.brand_color,
  logo: logoUrl(row),
  defaultLanguage: row.default_language,
  currency: row.currency,
  startingBalance: row.starting_balance === null ? fallbackBalance : Number(row.starting_balance),
  signup: row.signup,
  allowedDomains: row.allowed_domains,
  storageQuotaMb: row.storage_quota_mb,
  apiAccess: row.api_access,
  publicSharing: row.public_sharing,
});

/**
 * The organization's settings: display name, brand colour (contrast-checked against white), logo (PNG
 * or SVG up to 100 KB, base64 in the body, an SVG drawn as a PNG, served by GET /api/v1/organization/:subdomain/logo),
 * default language, currency, starting balance of new members, sign-up policy.
 */
export const settingsAdminPlugin: FastifyPluginAsync = async (app) => {
  async function read(tenant: string) {
    const row = await readOrganization(app.db, tenant);
    if (!row) throw new ApiError(404, 'Organization not found', 'NOT_FOUND');
    return row;
  }

  /** The settings, with the storage the organization's files take now (bytes, against `storageQuotaMb`). */
  const answer = async (tenant: string) => ({
    ...settingsOf(await read(tenant), app.config.startingBalance),
    storageBytes: await storageBytes(app.db, tenant),
  });

  app.get('/settings', async (request) => answer(request.tenant));

  app.patch<{ Body: SettingsBody }>(
    '/settings',
    {
      // A logo of 100 KB is 137 KB in base64.
      bodyLimit: Math.ceil((logoMaxBytes * 4) / 3) + 16 * 1024,
      schema: {
        body: objectOf(
          {
            name: { type: 'string', minLength: 1, maxLength: 80 },
            brandColor: { type: ['string', 'null'], maxLength: 7 },
            logo: {
              anyOf: [
                { type: 'null' },
                objectOf(
                  {
                    type: { type: 'string', enum: ['image/png', 'image/svg+xml'] },
                    data: {
                      type: 'string',
                      minLength: 1,
                      maxLength: Math.ceil((logoMaxBytes * 4) / 3) + 200,
                    },
                  },
                  ['type', 'data'],
                ),
              ],
            },
            defaultLanguage: { type: 'string', enum: languages },
            currency: { type: 'string', pattern: '^[A-Z]{3}$' },
            startingBalance: { type: ['number', 'null'], minimum: 0, maximum: 1_000_000 },
            signup: { type: 'string', enum: ['open', 'invite', 'domains'] },
            allowedDomains: {
              type: 'array',
              maxItems: 50,
              items: { type: 'string', minLength: 1, maxLength: 253 },
            },
            storageQuotaMb: { type: 'integer', minimum: 0, maximum: 100_000_000 },
            apiAccess: { type: 'boolean' },
            // Off: conversations cannot be shared with anyone, and existing public links answer 404.
            publicSharing: { type: 'boolean' },
          },
          [],
          1,
        ),
      },
    },
    async (request) => {
      const body = request.body;
      const before = await read(request.tenant);
      const name = body.name === undefined ? null : cleanName(body.name);
      const brandColor = body.brandColor ? checkBrandColor(body.brandColor) : null;
      if (body.currency !== undefined && !currencies.has(body.currency))
        throw new ApiError(400, `${body.currency} is not a currency code.`, 'INVALID_INPUT', 'currency');
      const domains =
        body.allowedDomains === undefined
          ? before.allowed_domains
          : [...new Set(body.allowedDomains.map((domain) => domain.trim().toLowerCase().replace(/^@/, '')))];
      const badDomain = domains.find((domain) => !new RegExp(domainPattern).test(domain));
      if (badDomain)
        throw new ApiError(400, `${badDomain} is not a domain name.`, 'INVALID_INPUT', 'allowedDomains');
      const signup = body.signup ?? before.signup;
      if (signup === 'domains' && !domains.length)
        throw new ApiError(
          400,
          'Name at least one email domain to admit, or choose another sign-up policy.',
          'INVALID_INPUT',
          'allowedDomains',
        );
      // Last: an SVG is drawn, the one costly check.
      const logo = body.logo ? await checkLogo(body.logo) : null;
      await app.db.transaction(async (tx) => {
        await tx.query(
          `update organizations set
             name = coalesce($2, name),
             brand_color = case when $3 then $4 else brand_color end,
             logo = case when $5 then $6 else logo end,
             logo_type = case when $5 then $7 else logo_type end,
             logo_version = case when $5 then $8 else logo_version end,
             default_language = coalesce($9, default_language),
             currency = coalesce($10, currency),
             starting_balance = case when $11 then $12::numeric else starting_balance end,
             signup = $13, allowed_domains = $14::text[],
             storage_quota_mb = coalesce($15, storage_quota_mb),
             api_access = coalesce($16, api_access),
             public_sharing = coalesce($17, public_sharing)
           where subdomain = $1`,
          [
            request.tenant,
            name,
            body.brandColor !== undefined,
            brandColor,
            body.logo !== undefined,
            logo?.data ?? null,
            logo?.type ?? null,
            logo?.version ?? null,
            body.defaultLanguage ?? null,
            body.currency ?? null,
            body.startingBalance !== undefined,
            body.startingBalance ?? null,
            signup,
            domains,
            body.storageQuotaMb ?? null,
            body.apiAccess ?? null,
            body.publicSharing ?? null,
          ],
        );
        const after = await readOrganization(tx, request.tenant);
        const fallback = app.config.startingBalance;
        await audit(tx, request, {
          action: 'settings.update',
          target: before.id,
          before: settingsOf(before, fallback),
          after: after ? settingsOf(after, fallback) : null,
        });
      });
      return answer(request.tenant);
    },
  );
};
