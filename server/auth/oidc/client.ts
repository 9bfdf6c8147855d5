import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import type { SsoRow } from '../../organizations/sso';
import { checkProviderUrl, providerFetch, RefusedAddress } from '../../security/outbound';

/** Why talking to the identity provider failed, in words for the person signing in (or the owner). */
export class IdpProblem extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The issuer's own address: http(s), no credentials, no query or fragment; https unless private addresses are allowed. */
export async function checkIssuer(value: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = await checkProviderUrl(value, allowPrivate);
  } catch (error) {
    if (error instanceof RefusedAddress)
      throw new IdpProblem(
        error.message.replace('which providers may not use', 'which is not allowed'),
        'URL_NOT_ALLOWED',
      );
    throw new IdpProblem((error as Error).message.replace('The base URL', 'The issuer URL'), 'INVALID_URL');
  }
  if (url.search || url.hash)
    throw new IdpProblem('The issuer URL may not have a query or a fragment.', 'INVALID_URL');
  if (url.protocol !== 'https:' && !allowPrivate)
    throw new IdpProblem('The issuer URL must start with https://.', 'INVALID_URL');
  return url;
}

/**
 * Fetch for openid-client: every request to the identity provider (discovery, keys, token, userinfo)
 * goes through the providers' SSRF guard, checked again on connecting, never following a redirect.
 */
const guardedFetch =
  (allowPrivate: boolean): oidc.CustomFetch =>
  (url, options) =>
    providerFetch(
      url,
      {
        method: options.method,
        headers: options.headers,
        body:
          options.body === undefined || options.body === null
            ? undefined
            : typeof options.body === 'string'
              ? options.body
              : options.body instanceof URLSearchParams
                ? options.body.toString()
                : Buffer.from(options.body as ArrayBuffer).toString('utf8'),
        signal: options.signal,
      },
      allowPrivate,
    );

/** What openid-client's errors mean for the person signing in. */
export function describeIdpError(error: unknown): IdpProblem {
  if (error instanceof IdpProblem) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof RefusedAddress || cause instanceof RefusedAddress)
    return new IdpProblem(
      'The identity provider’s address is on a private or local network, which is not allowed.',
      'URL_NOT_ALLOWED',
    );
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error)?.message ?? '';
  if (error instanceof oidc.AuthorizationResponseError)
    return new IdpProblem(
      `The identity provider refused the sign-in: ${error.error_description ?? error.error}.`,
      'IDP_REFUSED',
    );
  if (error instanceof oidc.ResponseBodyError)
    return new IdpProblem(
      `The identity provider did not accept the sign-in (${error.error}). Start again.`,
      'IDP_REFUSED',
    );
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' && /issuer/.test(message))
    return new IdpProblem(
      'The identity provider answers for another issuer than the one configured. An owner must check the SSO settings.',
      'ISSUER_MISMATCH',
    );
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    // openid-client wraps oauth4webapi's error, whose message names the claim.
    const claim = /"(\w+)"/.exec(`${message} ${(cause as Error | undefined)?.message ?? ''}`)?.[1] ?? 'token';
    return new IdpProblem(
      `The identity provider’s ID token could not be accepted (${claim}). Start again.`,
      'ID_TOKEN_REJECTED',
    );
  }
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' || code === 'ERR_JWKS_NO_MATCHING_KEY')
    return new IdpProblem('The identity provider’s ID token is not signed by its keys.', 'ID_TOKEN_REJECTED');
  if (code.startsWith('OAUTH_') || error instanceof oidc.ClientError)
    return new IdpProblem(`The identity provider’s answer could not be used: ${message}`, 'IDP_BAD_RESPONSE');
  return new IdpProblem('The identity provider cannot be reached. Try again later.', 'IDP_UNREACHABLE');
}

/**
 * The organization's identity provider as openid-client knows it (discovery), kept for a while per
 * node: key, issuer, client and secret all name the entry, so a change of the settings is a new one.
 */
export function createIdpClients(app: FastifyInstance) {
  const allowPrivate = app.config.allowPrivateProviderUrls;
  const ttlMs = app.config.oidcMetadataTtlMs;
  const kept = new Map<string, { config: oidc.Configuration; until: number }>();

  async function discover(
    issuer: string,
    clientId: string,
    secret: string | null,
  ): Promise<oidc.Configuration> {
    const url = await checkIssuer(issuer, allowPrivate);
    const auth = secret ? oidc.ClientSecretBasic(secret) : oidc.None();
    try {
      return await oidc.discovery(url, clientId, secret ?? undefined, auth, {
        [oidc.customFetch]: guardedFetch(allowPrivate),
        execute: allowPrivate ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
    } catch (error) {
      throw describeIdpError(error);
    }
  }

  return {
    discover,
    /** The organization's configured provider, discovered (or as kept). */
    async open(row: SsoRow): Promise<oidc.Configuration> {
      const secret = row.client_secret ? app.secrets.unseal(row.client_secret, row.tenant) : null;
      const key = JSON.stringify([row.tenant, row.issuer, row.client_id, row.client_secret]);
      const entry = kept.get(key);
      if (entry && entry.until > Date.now()) return entry.config;
      const config = await discover(row.issuer, row.client_id, secret);
      if (kept.size > 1000) kept.clear();
      if (ttlMs > 0) kept.set(key, { config, until: Date.now() + ttlMs });
      return config;
    },
  };
}

export type IdpClients = ReturnType<typeof createIdpClients>;
