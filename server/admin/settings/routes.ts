import { readdirSync } from 'node:fs';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { type SpeechSettings, speechChangeSchema, speechOf, speechSchema } from '../../audio/settings';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { storageBytes } from '../../files/store';
import { checkBrandColor, checkLogo, logoMaxBytes } from '../../organizations/logo';
import { logoUrl, type OrganizationRow, readOrganization } from '../../organizations/store';
import { catalogsFolder } from '../../paths';
import { cleanName, objectOf } from '../../schemas';
import { checkSearch } from '../../search/settings';
import { searchSettingsOf } from '../../search/store';
import { checkTools } from '../../tools/registry';
import { checkProvider } from '../models/store';
import { updateSettings } from './store';

/** English and the languages of the server's catalogs (the app's 12). */
const languages = [
  'en',
  ...readdirSync(catalogsFolder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -5)),
].sort();
const currencies = new Set(Intl.supportedValuesOf('currency'));
/** Image generation: where, with which model, at what price per image (null: not configured). */
const imagesSchema = {
  anyOf: [
    { type: 'null' },
    objectOf(
      {
        provider: {
          type: ['string', 'null'],
          maxLength: 64,
          description: 'an organization provider; null: the server’s own model server',
        },
        model: { type: 'string', minLength: 1, maxLength: 200 },
        price: { type: 'number', minimum: 0, maximum: 1000, description: 'per image' },
      },
      ['provider', 'model', 'price'],
    ),
  ],
} as const;
const domainPattern = '^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$';

const settingsSchema = objectOf(
  {
    name: { type: 'string' },
    brandColor: { type: ['string', 'null'] },
    logo: { type: ['string', 'null'], description: 'where the logo is served, or null' },
    defaultLanguage: { type: 'string' },
    currency: { type: 'string' },
    startingBalance: { type: 'number' },
    signup: { type: 'string', enum: ['open', 'invite', 'domains'] },
    allowedDomains: { type: 'array', items: { type: 'string' } },
    storageQuotaMb: { type: 'integer' },
    apiAccess: { type: 'boolean' },
    publicSharing: { type: 'boolean' },
    memory: { type: 'boolean' },
    memberBots: { type: 'boolean', description: 'members may make their own bots' },
    memberBotTools: {
      type: 'array',
      items: { type: 'string' },
      description: 'the tools members may give their bots (names)',
    },
    images: imagesSchema,
    storageBytes: { type: 'integer', description: 'what the organization’s files take now' },
    search: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['engine'],
      description:
        'the search engine of web_search, or null; the Brave key as ••••, with its last four characters when long',
      properties: {
        engine: { type: 'string', enum: ['searxng', 'brave'] },
        url: { type: 'string' },
        key: { type: 'string' },
      },
    },
    speech: speechSchema,
  },
  [
    'name',
    'brandColor',
    'logo',
    'defaultLanguage',
    'currency',
    'startingBalance',
    'signup',
    'allowedDomains',
    'storageQuotaMb',
    'apiAccess',
    'publicSharing',
    'memory',
    'memberBots',
    'memberBotTools',
    'images',
    'storageBytes',
    'search',
    'speech',
  ],
);

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
  memory: row.memory,
  memberBots: row.member_bots,
  memberBotTools: row.member_bot_tools,
  search: searchSettingsOf(row.search),
  images: row.images,
  speech: speechOf(row.speech),
});

/**
 * The organization's settings: display name, brand colour (contrast-checked against white), logo (PNG
 * or SVG up to 100 KB, base64 in the body, an SVG drawn as a PNG, served by GET /api/v1/organization/:subdomain/logo),
 * default language, currency, starting balance of new members, sign-up policy.
 */
export const settingsAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
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

  /** The voice settings a change leaves: its provider the organization's, speech with a voice to read in. */
  async function checkSpeech(
    tenant: string,
    before: OrganizationRow,
    change: Partial<SpeechSettings>,
  ): Promise<SpeechSettings> {
    const speech = { ...speechOf(before.speech), ...change };
    await checkProvider(app.db, tenant, speech.provider).catch(() => {
      throw new ApiError(
        400,
        'Choose one of the organization’s providers.',
        'INVALID_INPUT',
        'speech.provider',
      );
    });
    if (speech.speechModel && !speech.voices.length)
      throw new ApiError(
        400,
        'Name at least one voice for the speech model (alloy, for instance).',
        'INVALID_INPUT',
        'speech.voices',
      );
    return speech;
  }

  app.get('/settings', { schema: { response: { 200: settingsSchema } } }, (request) =>
    answer(request.tenant),
  );

  app.patch(
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
            // Off: members' memories are neither saved nor given to replies (those kept stay theirs).
            memory: { type: 'boolean' },
            // Off: members make no new bots (those made stay theirs and keep answering until retired).
            memberBots: { type: 'boolean' },
            memberBotTools: {
              type: 'array',
              maxItems: 100,
              items: { type: 'string', minLength: 1, maxLength: 64 },
            },
            // The engine of `web_search`: a SearXNG instance (`url`) or Brave Search (`key`, kept when
            // left out); null: none.
            search: {
              type: ['object', 'null'],
              additionalProperties: false,
              required: ['engine'],
              properties: {
                engine: { type: 'string', enum: ['searxng', 'brave'] },
                url: { type: ['string', 'null'], maxLength: 500 },
                key: { type: ['string', 'null'], maxLength: 1000 },
              },
            },
            // Null: no image generation (image bots and generate_image say it is not set up).
            images: imagesSchema,
            // Voice: the fields given replace those stored.
            speech: speechChangeSchema,
          },
          [],
          1,
        ),
        response: { 200: settingsSchema },
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
      // Names of the organization's tools; those listed already are not looked up again.
      const memberBotTools =
        body.memberBotTools === undefined
          ? null
          : (
              await checkTools(
                app.db,
                request.tenant,
                body.memberBotTools,
                [],
                new Set(before.member_bot_tools),
              ).catch((error) => {
                throw error instanceof ApiError
                  ? new ApiError(error.statusCode, error.message, error.code, 'memberBotTools')
                  : error;
              })
            ).tools;
      const search =
        body.search === undefined
          ? undefined
          : await checkSearch(body.search, before.search, {
              allowPrivate: app.config.allowPrivateProviderUrls,
              seal: (key) => app.secrets.seal(key, request.tenant),
            });
      const images = body.images && {
        provider: body.images.provider,
        model: body.images.model.trim(),
        price: body.images.price,
      };
      if (images && !images.model)
        throw new ApiError(400, 'Name the image model.', 'INVALID_INPUT', 'images.model');
      if (images)
        await checkProvider(app.db, request.tenant, images.provider).catch((error) => {
          throw error instanceof ApiError
            ? new ApiError(error.statusCode, error.message, error.code, 'images.provider')
            : error;
        });
      const speech =
        body.speech === undefined ? null : await checkSpeech(request.tenant, before, body.speech);
      // Last: an SVG is drawn, the one costly check.
      const logo = body.logo ? await checkLogo(body.logo) : null;
      await app.db.transaction(async (tx) => {
        await updateSettings(tx, request.tenant, {
          name,
          brandColor: body.brandColor === undefined ? undefined : brandColor,
          logo: body.logo === undefined ? undefined : logo,
          defaultLanguage: body.defaultLanguage ?? null,
          currency: body.currency ?? null,
          startingBalance: body.startingBalance,
          signup,
          allowedDomains: domains,
          storageQuotaMb: body.storageQuotaMb ?? null,
          apiAccess: body.apiAccess ?? null,
          publicSharing: body.publicSharing ?? null,
          memory: body.memory ?? null,
          memberBots: body.memberBots ?? null,
          memberBotTools,
          search,
          images,
          speech,
        });
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
