// A real OpenID Connect provider for the tests: panva's oidc-provider (OpenID Certified), in its own
// process. Settings come from the environment:
//   IDP_PORT      port to listen on (127.0.0.1)
//   IDP_ISSUER    issuer identifier (default http://127.0.0.1:<port>)
//   IDP_CLIENTS   JSON array of oidc-provider client metadata
// Its development login form admits any login and password; the login names the account. Accounts'
// claims are set with `PUT /_test/accounts/<login>` (JSON claims); unknown logins get
// <login>@idp.test, verified. `PUT /_test/discovery-issuer` (JSON { issuer }) makes discovery advertise
// another issuer, as an identity provider that changed its issuer would; `PUT /_test/next-id-token`
// (JSON { idToken }) makes the next token answer carry that ID token instead of its own (a token
// substituted on the way). Prints "listening" when ready.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.IDP_PORT);
const issuer = process.env.IDP_ISSUER || `http://127.0.0.1:${port}`;
const clients = JSON.parse(process.env.IDP_CLIENTS || '[]');
const accounts = new Map();
let advertisedIssuer = null;
let nextIdToken = null;

const provider = new Provider(issuer, {
  clients,
  cookies: { keys: ['parley-test-idp-cookie-key'] },
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'preferred_username'],
    groups: ['groups'],
  },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          ...(accounts.get(id) ?? { email: `${id}@idp.test`, email_verified: true, name: id }),
        };
      },
    };
  },
  // First-party clients: no consent screen, every scope and claim asked for is granted.
  async loadExistingGrant(ctx) {
    const grantId =
      ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope(ctx.oidc.params.scope ?? 'openid');
    await grant.save();
    return grant;
  },
});
// The dev interactions' warnings are not news here.
provider.on('server_error', (_ctx, error) => console.error('idp server_error', error));

const handle = provider.callback();
const readText = (request) =>
  new Promise((resolve, reject) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
const readJson = async (request) => JSON.parse(await readText(request));

createServer(async (request, response) => {
  const url = new URL(request.url, issuer);
  if (request.method === 'PUT' && url.pathname.startsWith('/_test/accounts/')) {
    accounts.set(decodeURIComponent(url.pathname.slice('/_test/accounts/'.length)), await readJson(request));
    response.writeHead(204).end();
    return;
  }
  if (request.method === 'PUT' && url.pathname === '/_test/discovery-issuer') {
    advertisedIssuer = (await readJson(request)).issuer ?? null;
    response.writeHead(204).end();
    return;
  }
  if (request.method === 'PUT' && url.pathname === '/_test/next-id-token') {
    nextIdToken = (await readJson(request)).idToken ?? null;
    response.writeHead(204).end();
    return;
  }
  // The next token answer carries the ID token given instead of its own (a substituted token).
  if (
    nextIdToken &&
    request.method === 'POST' &&
    url.pathname === '/token' &&
    !request.headers['x-test-inner']
  ) {
    const answer = await fetch(`http://127.0.0.1:${port}/token`, {
      method: 'POST',
      headers: {
        'content-type': request.headers['content-type'],
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        'x-test-inner': '1',
      },
      body: await readText(request),
    });
    const tokens = await answer.json();
    if (tokens.id_token) tokens.id_token = nextIdToken;
    nextIdToken = null;
    response
      .writeHead(answer.status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify(tokens));
    return;
  }
  if (
    advertisedIssuer &&
    url.pathname === '/.well-known/openid-configuration' &&
    !request.headers['x-test-inner']
  ) {
    const answer = await fetch(`http://127.0.0.1:${port}${url.pathname}`, {
      headers: { 'x-test-inner': '1' },
    });
    const metadata = await answer.json();
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...metadata, issuer: advertisedIssuer }));
    return;
  }
  handle(request, response);
}).listen(port, '127.0.0.1', () => console.log('listening'));
