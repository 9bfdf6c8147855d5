import { call, encrypter, type Json, signUp, type TestServer } from '../../support/app';
import { readCode } from '../../support/outbox';
import { readEvents } from '../../support/sse';

/** The seeded owner of `app` and `acme` (server/seed/seed.ts). */
export const seededOwner = { email: 'admin@parley.test', password: 'parley-admin-1' };

export interface Actor {
  token: string;
  id: string;
  tenant: string;
  email: string;
  encrypt: (value: string) => string;
}

/** Logs in as the seeded owner of `tenant`. */
export async function loginOwner(server: TestServer, tenant: string): Promise<Actor> {
  return login(server, tenant, seededOwner.email, seededOwner.password);
}

export async function login(
  server: TestServer,
  tenant: string,
  email: string,
  password: string,
): Promise<Actor> {
  const encrypt = await encrypter(server);
  const answer = await call(server, '/auth/login', {
    tenant,
    body: { email: encrypt(email), password: encrypt(password) },
  });
  if (answer.status !== 200) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  const token = answer.body.token as string;
  const me = await call(server, '/api/v1/user/me', { tenant, token });
  return { token, id: me.body._id, tenant, email, encrypt };
}

let invited = 0;
/** A new member of `tenant` with `role`, through the real flow: invited by the owner, signed up with the mail. */
export async function member(
  server: TestServer,
  tenant: string,
  role: 'member' | 'admin' | 'owner' = 'member',
) {
  if (role === 'member') return signUp(server, tenant);
  const owner = await loginOwner(server, tenant);
  invited += 1;
  const email = `${role}${Date.now().toString(36)}${invited}@example.org`;
  const answer = await call(server, '/api/v1/admin/member/invite', {
    tenant,
    token: owner.token,
    body: { email: owner.encrypt(email), role },
  });
  if (answer.status !== 200) throw new Error(`invite failed: ${JSON.stringify(answer.body)}`);
  return signUp(server, tenant, { email });
}

/** An admin call as `actor`, with encrypted `name`/`email` fields as the web app sends them. */
export function admin(
  server: TestServer,
  actor: Actor | { token?: string; tenant: string },
  path: string,
  options: { method?: string; body?: Json; tenant?: string } = {},
) {
  return call(server, `/api/v1/admin${path}`, {
    method: options.method,
    body: options.body,
    token: actor.token,
    tenant: options.tenant ?? actor.tenant,
  });
}

/** SSE of a POST, as the web app reads a reply (a chat's, the admin's Try it). */
export async function stream(server: TestServer, path: string, token: string, tenant: string, body: Json) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, organization: tenant },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    events: await readEvents(response),
  };
}

export { readCode };
