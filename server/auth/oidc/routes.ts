import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { syncIdpGroups } from '../../access/groups';
import { ApiError } from '../../errors';
import { readSso } from '../../organizations/sso';
import { readOrganization } from '../../organizations/store';
import { repeat } from '../../repeat';
import { tokenResponse } from '../schemas';
import { suspendedMember } from '../sessions';
import { checkEmailClaim, memberFor } from './accounts';
import { createIdpClients, describeIdpError, IdpProblem } from './client';
import { isSuspended, pruneExpired, setIdpGroups, startLogin, storeCode, takeCode, takeLogin } from './store';

/** The sealed state, nonce and PKCE verifier of a sign-in started in this browser (start → callback). */
const loginCookie = 'parley_oidc';
/** The random value binding the code handed to this browser to it (callback → exchange). */
const codeCookie = 'parley_oidc_code';
const cookiePath = '/auth/oidc';
const loginMinutes = 10;
const codeSeconds = 60;
const sealContext = 'oidc-login';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The same rule as the app's return targets (machines/session.ts, isSameSitePath): a path of this site,
 * never another origin; no backslash, no control character raw or percent-encoded (`/%09/evil.example`
 * decoded once more would be `//evil.example`). Anything else is `/list`.
 */
export function safeReturnUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/list';
  if (
    !value.startsWith('/') ||
    value.startsWith('//') ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    /[\u0000-\u001f\u007f\\]/.test(value) ||
    /%(?:[01][0-9a-f]|7f)/i.test(value)
  )
    return '/list';
  return value;
}

function readCookie(request: FastifyRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

const cookie = (request: FastifyRequest, name: string, value: string, maxAge: number) =>
  `${name}=${encodeURIComponent(value)}; Path=${cookiePath}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${request.protocol === 'https' ? '; Secure' : ''}`;

/** Where the browser lands when the sign-in failed: the login screen, which shows the sentence. */
const failure = (reply: FastifyReply, message: string) =>
  reply.header('cache-control', 'no-store').redirect(`/login?ssoError=${encodeURIComponent(message)}`, 302);

interface Binding {
  state: string;
  nonce: string;
  verifier: string;
}

/**
 * Sign-in with the organization's identity provider (OpenID Connect, authorization code + PKCE):
 * `GET /auth/oidc/start` sends the browser to the provider with state, nonce and an S256 challenge, and
 * binds them to that browser in a sealed HttpOnly cookie; `GET /auth/oidc/callback` takes the state once
 * (in the database, so any node can), redeems the code with openid-client (which checks the ID token's
 * signature, issuer, audience, nonce and expiry), finds or makes the member, and hands the app a code
 * valid 60 s and once, bound to that browser by a second HttpOnly cookie, which `POST /auth/oidc/exchange`
 * turns into the token a login gives — only in that browser, so a code sent to someone else (login
 * CSRF) signs nobody in.
 * Failures land on the login screen with a sentence (`?ssoError=`), never a 500.
 */
export const oidcPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const clients = createIdpClients(app);

  app.get(
    '/auth/oidc/start',
    // Any query: whatever it holds, the browser lands somewhere with a sentence, never on a 400 page.
    { config: { anyTenant: true }, schema: { querystring: { type: 'object', additionalProperties: true } } },
    async (request, reply) => {
      try {
        const organization = String(request.query.organization ?? 'app')
          .trim()
          .toLowerCase()
          .slice(0, 63);
        const row = await readOrganization(app.db, organization);
        if (!row || row.disabled) return failure(reply, 'No organization has this address.');
        // A host naming one organization does not start another's sign-in.
        const label = request.hostname.split('.');
        if (label.length > 2 && label[0] !== organization) {
          const other = await readOrganization(app.db, label[0].toLowerCase());
          if (other) return failure(reply, 'The Organization named is not the one of this address.');
        }
        const sso = await readSso(app.db, organization);
        if (!sso) return failure(reply, 'This organization does not sign in with an identity provider.');
        const config = await clients.open(sso);
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        const verifier = oidc.randomPKCECodeVerifier();
        const redirectUri = new URL('/auth/oidc/callback', `${request.protocol}://${request.host}`).href;
        await startLogin(app.db, {
          stateHash: sha256(state),
          tenant: organization,
          redirectUri,
          returnUrl: safeReturnUrl(request.query.returnUrl),
          minutes: loginMinutes,
        });
        const target = oidc.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: sso.scopes.join(' '),
          state,
          nonce,
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        });
        const binding: Binding = { state, nonce, verifier };
        return reply
          .header(
            'set-cookie',
            cookie(
              request,
              loginCookie,
              app.secrets.seal(JSON.stringify(binding), sealContext),
              loginMinutes * 60,
            ),
          )
          .header('cache-control', 'no-store')
          .redirect(target.href, 302);
      } catch (error) {
        const problem = describeIdpError(error);
        if (problem.code === 'IDP_UNREACHABLE') request.log.warn({ err: error }, 'SSO start failed');
        return failure(reply, problem.message);
      }
    },
  );

  app.get('/auth/oidc/callback', { config: { anyTenant: true } }, async (request, reply) => {
    // Whatever happens, the binding is used up.
    reply.header('set-cookie', cookie(request, loginCookie, '', 0));
    try {
      const query = new URL(request.url, 'http://callback.invalid').searchParams;
      const state = query.get('state');
      let binding: Binding | null = null;
      const sealed = readCookie(request, loginCookie);
      try {
        binding = sealed ? (JSON.parse(app.secrets.unseal(sealed, sealContext)) as Binding) : null;
      } catch {
        binding = null;
      }
      if (!binding || !state || binding.state !== state)
        return failure(
          reply,
          'This sign-in was not started in this browser, or it took too long. Start again from the login page.',
        );
      const login = await takeLogin(app.db, sha256(state));
      if (!login)
        return failure(
          reply,
          'This sign-in was used already or has expired. Start again from the login page.',
        );
      const [organization, sso] = await Promise.all([
        readOrganization(app.db, login.tenant),
        readSso(app.db, login.tenant),
      ]);
      if (!organization || organization.disabled)
        return failure(reply, 'This organization has been disabled.');
      if (!sso) return failure(reply, 'This organization does not sign in with an identity provider.');

      const config = await clients.open(sso);
      const currentUrl = new URL(login.redirectUri);
      currentUrl.search = query.toString();
      const tokens = await oidc
        .authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: binding.verifier,
          expectedState: binding.state,
          expectedNonce: binding.nonce,
          idTokenExpected: true,
        })
        .catch((error) => {
          throw describeIdpError(error);
        });
      const idToken = tokens.claims();
      if (!idToken) throw new IdpProblem('The identity provider sent no ID token.', 'ID_TOKEN_REJECTED');
      let claims: Record<string, unknown> = { ...idToken };
      // Providers that keep the profile out of the ID token give it at the userinfo endpoint.
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub).catch((error) => {
          throw describeIdpError(error);
        });
        claims = { ...info, ...idToken };
      }
      const email = checkEmailClaim(claims[sso.email_claim]);
      const verified = claims.email_verified === true || claims.email_verified === 'true';
      const name = typeof claims[sso.name_claim] === 'string' ? (claims[sso.name_claim] as string) : '';
      const groupsClaim = sso.groups_claim ? claims[sso.groups_claim] : undefined;
      const groups = Array.isArray(groupsClaim)
        ? groupsClaim.filter((group): group is string => typeof group === 'string')
        : typeof groupsClaim === 'string'
          ? [groupsClaim]
          : [];

      const code = randomBytes(32).toString('base64url');
      // The code works only in this browser: a link with it, sent to someone else, signs nobody in.
      const browserKey = randomBytes(32).toString('base64url');
      await app.db.transaction(async (tx) => {
        const member = await memberFor(
          tx,
          organization,
          { issuer: idToken.iss, subject: idToken.sub, email, emailVerified: verified, name },
          app.config.startingBalance,
        );
        if (member.status === 'suspended') throw suspendedMember();
        if (sso.groups_claim) {
          await setIdpGroups(tx, organization.subdomain, member.userId, groups);
          // The organization's groups mapped to these IdP names get the member, the others lose them.
          await syncIdpGroups(tx, organization.subdomain, member.userId, groups);
        }
        await storeCode(tx, {
          codeHash: sha256(code),
          browserHash: sha256(browserKey),
          tenant: organization.subdomain,
          userId: member.userId,
          seconds: codeSeconds,
        });
      });
      return reply
        .header('set-cookie', cookie(request, codeCookie, browserKey, codeSeconds))
        .header('cache-control', 'no-store')
        .redirect(`/login?sso=${code}&returnUrl=${encodeURIComponent(login.returnUrl)}`, 302);
    } catch (error) {
      if (error instanceof ApiError) return failure(reply, error.message);
      const problem = describeIdpError(error);
      if (problem.code === 'IDP_UNREACHABLE' && !(error instanceof IdpProblem))
        request.log.warn({ err: error }, 'SSO callback failed');
      return failure(reply, problem.message);
    }
  });

  app.post(
    '/auth/oidc/exchange',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        body: {
          type: 'object',
          required: ['code'],
          additionalProperties: false,
          properties: { code: { type: 'string', minLength: 1, maxLength: 200 } },
        },
        response: { 200: tokenResponse },
      },
    },
    async (request, reply) => {
      const browserKey = readCookie(request, codeCookie);
      // Single use: whoever deletes it has it, on any node.
      const taken = await takeCode(app.db, {
        codeHash: sha256(request.body.code),
        browserHash: browserKey ? sha256(browserKey) : null,
        tenant: request.tenant,
      });
      if (taken === 'elsewhere')
        throw new ApiError(
          403,
          'This sign-in was started in another browser. To sign in here, start it again on this login screen.',
          'SSO_OTHER_BROWSER',
        );
      if (taken === 'invalid')
        throw new ApiError(
          400,
          'This sign-in code is wrong, used already or expired. Sign in again.',
          'INVALID_CODE',
          'code',
        );
      if (await isSuspended(app.db, request.tenant, taken.userId)) throw suspendedMember();
      const token = await app.sessions.open({ userId: taken.userId, tenant: request.tenant }, 'sso');
      reply.header('set-cookie', cookie(request, codeCookie, '', 0));
      return { token };
    },
  );

  repeat(app, 3_600_000, 'pruning SSO logins and codes', () => pruneExpired(app.db));
};
