import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { memberVoice, memberVoiceSchema, speechOf } from '../audio/settings';
import { ApiError } from '../errors';
import { checkLogo } from './logo';
import { readSso } from './sso';
import { logoUrl, readLogo, readOrganization, replaceLogo } from './store';

const unknown = () => new ApiError(404, 'No organization has this address.', 'UNKNOWN_ORGANIZATION');
const subdomainParams = {
  type: 'object',
  required: ['subdomain'],
  properties: { subdomain: { type: 'string', maxLength: 63 } },
} as const;
const nullableString = { type: ['string', 'null'] } as const;
const organizationSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    '_id',
    'subdomain',
    'name',
    'currency',
    'brandColor',
    'logo',
    'defaultLanguage',
    'sso',
    'messageTranslation',
    'memory',
    'memberBots',
    'webSearch',
    'voice',
  ],
  properties: {
    _id: { type: 'string' },
    subdomain: { type: 'string' },
    name: { type: 'string' },
    currency: { type: 'string' },
    brandColor: nullableString,
    logo: { ...nullableString, description: 'the logo’s URL, a PNG' },
    defaultLanguage: { type: 'string' },
    sso: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['label'],
      properties: { label: { type: 'string' } },
    },
    messageTranslation: { type: 'boolean' },
    memory: { type: 'boolean' },
    memberBots: { type: 'boolean', description: 'members may make their own bots' },
    webSearch: { type: 'boolean', description: 'the organization has a search engine for web_search' },
    images: { type: 'boolean', description: 'image generation is set up' },
    voice: memberVoiceSchema,
  },
} as const;

/**
 * `GET /api/v1/organization/:subdomain`: the organization check's lookup (seed-spec §4), with what the
 * app shows of it (brand colour, logo, default language). A disabled organization is not found.
 */
export const organizationsPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get(
    '/api/v1/organization/:subdomain',
    {
      config: { anyTenant: true },
      schema: { params: subdomainParams, response: { 200: organizationSchema } },
    },
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
        // The chat offers to translate messages only when a provider can (the catalogs hold the UI's words).
        messageTranslation: app.translator.hasProvider,
        // Personalization explains the "Use memory" switch instead when the admins turned memory off.
        memory: row.memory,
        // The catalogue offers "Make a bot" only while the admins let members make bots.
        memberBots: row.member_bots,
        // The composer offers "Search the web" only when the admins chose a search engine.
        webSearch: row.search !== null,
        // Image bots and generate_image draw only once the admins set image generation up.
        images: row.images !== null,
        // The composer offers the microphone, and Profile the voices, only when the admins set models.
        voice: memberVoice(speechOf(row.speech)),
      };
    },
  );

  // Public, like the organization itself: the landing page shows it before anyone logs in. Always a PNG:
  // an SVG logo kept from before they were drawn on upload is drawn when first asked for, once.
  app.get(
    '/api/v1/organization/:subdomain/logo',
    { config: { anyTenant: true }, schema: { params: subdomainParams } },
    async (request, reply) => {
      const { subdomain } = request.params;
      const noLogo = () => new ApiError(404, 'No logo.', 'NOT_FOUND');
      let logo = await readLogo(app.db, subdomain);
      if (!logo) throw noLogo();
      if (logo.type === 'image/svg+xml') {
        const drawn = await checkLogo(logo).catch(() => null);
        if (!drawn) throw noLogo();
        await replaceLogo(app.db, subdomain, logo.data, drawn);
        logo = drawn;
      }
      return reply
        .type(logo.type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .header('cache-control', 'public, max-age=300')
        .send(Buffer.from(logo.data, 'base64'));
    },
  );
};
