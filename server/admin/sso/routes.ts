import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { audit } from '../../audit/store';
import { createIdpClients, IdpProblem } from '../../auth/oidc/client';
import { ApiError } from '../../errors';
import { countMembersKeys, revokeMembersKeys } from '../../openai/store';
import { readSso, type SsoSettings, toSsoSettings } from '../../organizations/sso';
import { cleanName, objectOf } from '../../schemas';
import { forbidden } from '../requireRole';
import { deleteSso, saveSso } from './store';

/** The settings (the secret masked), and how many API keys of members and admins still work. */
type SsoAnswer = SsoSettings & { memberApiKeys: number };

const claimName = { type: 'string', minLength: 1, maxLength: 100 } as const;
const ssoSchema = {
  // `null` turns SSO off; the rest applies to an object only.
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['issuer', 'clientId', 'scopes', 'claims', 'label', 'required'],
  properties: {
    issuer: { type: 'string', minLength: 1, maxLength: 500 },
    clientId: { type: 'string', minLength: 1, maxLength: 255 },
    clientSecret: { type: ['string', 'null'], maxLength: 1000 },
    scopes: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' },
    },
    claims: {
      type: 'object',
      additionalProperties: false,
      required: ['email', 'name'],
      properties: { email: claimName, name: claimName, groups: { type: ['string', 'null'], maxLength: 100 } },
    },
    label: { type: 'string', minLength: 1, maxLength: 80 },
    required: { type: 'boolean' },
  },
} as const;

/** The answer of GET and PUT: the settings, or null when SSO is off. */
const answerSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['issuer', 'clientId', 'clientSecret', 'scopes', 'claims', 'label', 'required', 'memberApiKeys'],
  properties: {
    issuer: { type: 'string' },
    clientId: { type: 'string' },
    clientSecret: { type: ['string', 'null'], description: '••••, and its last four characters when long' },
    scopes: { type: 'array', items: { type: 'string' } },
    claims: objectOf({ email: { type: 'string' }, name: { type: 'string' }, groups: { type: 'string' } }, [
      'email',
      'name',
    ]),
    label: { type: 'string' },
    required: { type: 'boolean' },
    memberApiKeys: {
      type: 'integer',
      description: 'API keys of members and admins that still work: a way in around the IdP',
    },
  },
} as const;

const secretHint = (secret: string) => (secret.length >= 12 ? secret.slice(-4) : '');

/**
 * `GET, PUT /api/v1/admin/sso`: the organization's identity provider, for owners only. The client
 * secret is sealed at rest and never sent back; the issuer passes the providers' SSRF guard and must
 * answer OpenID Connect discovery for itself before it is kept. Saved with `required`, it ends the
 * password sessions of everyone but owners; the answer counts the API keys members and admins still
 * hold, which `POST /api/v1/admin/sso/revoke-api-keys` revokes. Every change is in the audit log.
 */
export const ssoAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const clients = createIdpClients(app);
  // After the admin area's check (admin or owner): SSO decides who gets in, so owners alone.
  app.addHook('onRequest', async (request) => {
    if (request.role !== 'owner') throw forbidden('Only an owner of this organization can do this.');
  });

  const answer = async (settings: SsoSettings, tenant: string): Promise<SsoAnswer> => ({
    ...settings,
    memberApiKeys: await countMembersKeys(app.db, tenant),
  });

  app.get('/sso', { schema: { response: { 200: answerSchema } } }, async (request) => {
    const row = await readSso(app.db, request.tenant);
    return row ? answer(toSsoSettings(row), request.tenant) : null;
  });

  app.put('/sso', { schema: { body: ssoSchema, response: { 200: answerSchema } } }, async (request) => {
    const { tenant } = request;
    const before = await readSso(app.db, tenant);
    const body = request.body;
    if (body === null || body === undefined) {
      await app.db.transaction(async (tx) => {
        await deleteSso(tx, tenant);
        await audit(tx, request, {
          action: 'sso.delete',
          target: tenant,
          before: before ? toSsoSettings(before) : null,
          after: null,
        });
      });
      return null;
    }
    const issuer = body.issuer.trim();
    const clientId = body.clientId.trim();
    if (!clientId) throw new ApiError(400, 'Please fill in the client ID.', 'INVALID_INPUT', 'clientId');
    const scopes = [...new Set(body.scopes)];
    if (!scopes.includes('openid'))
      throw new ApiError(400, 'The scopes must include openid.', 'INVALID_INPUT', 'scopes');
    const label = cleanName(body.label, 'label');
    const claim = (value: string | null | undefined, field: string) => {
      const name = value?.trim() ?? '';
      if (!/^[\w.:/-]{1,100}$/.test(name))
        throw new ApiError(
          400,
          `The ${field} claim is a claim name such as “${field}”.`,
          'INVALID_INPUT',
          'claims',
        );
      return name;
    };
    const emailClaim = claim(body.claims.email, 'email');
    const nameClaim = claim(body.claims.name, 'name');
    const groupsClaim = body.claims.groups?.trim() ? claim(body.claims.groups, 'groups') : null;

    // Left out: the secret stays as it is; null or empty: none (a public client with PKCE).
    const secretGiven = body.clientSecret !== undefined;
    const secret = secretGiven ? body.clientSecret?.trim() || null : null;
    const keptSecret =
      !secretGiven && before?.client_secret && before.client_id === clientId ? before.client_secret : null;
    const sealedSecret = secret ? app.secrets.seal(secret, tenant) : keptSecret;
    const hint = secret ? secretHint(secret) : keptSecret ? (before?.secret_hint ?? '') : '';

    try {
      await clients.discover(issuer, clientId, null);
    } catch (error) {
      if (error instanceof IdpProblem) throw new ApiError(400, error.message, error.code, 'issuer');
      throw error;
    }

    const saved = await app.db.transaction(async (tx) => {
      const saved = await saveSso(tx, tenant, {
        issuer,
        clientId,
        sealedSecret,
        secretHint: hint,
        scopes,
        emailClaim,
        nameClaim,
        groupsClaim,
        label,
        required: body.required,
      });
      await audit(tx, request, {
        action: before ? 'sso.update' : 'sso.create',
        target: tenant,
        before: before ? toSsoSettings(before) : null,
        after: toSsoSettings(saved),
      });
      // Members' passwords no longer let them in: neither do the sessions their passwords opened.
      const ended = body.required ? await app.sessions.endPasswordSessions(tx, tenant) : 0;
      if (ended > 0)
        await audit(tx, request, {
          action: 'sso.endSessions',
          target: tenant,
          before: null,
          after: { passwordSessions: ended },
        });
      return saved;
    });
    return answer(toSsoSettings(saved), tenant);
  });

  app.post(
    '/sso/revoke-api-keys',
    {
      schema: {
        response: {
          200: objectOf({ revoked: { type: 'integer' } }, ['revoked']),
        },
      },
    },
    async (request) => {
      const revoked = await app.db.transaction(async (tx) => {
        const count = await revokeMembersKeys(tx, request.tenant);
        await audit(tx, request, {
          action: 'sso.revokeApiKeys',
          target: request.tenant,
          before: null,
          after: { revoked: count },
        });
        return count;
      });
      return { revoked };
    },
  );
};
