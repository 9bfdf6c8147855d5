import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble } from '../../support/openai-double';
import { type Actor, admin, loginOwner, member } from './support';

type Role = 'anonymous' | 'member' | 'admin' | 'owner';
type Where = 'own' | 'other';
const roles: Role[] = ['anonymous', 'member', 'admin', 'owner'];

/** The ids a route acts on, made fresh for each call (a DELETE uses its own). */
interface Ids {
  bot: string;
  category: string;
  provider: string;
  member: string;
  invitation: string;
}

interface Route {
  name: string;
  /** Whether the route names a record (then "other organization" means another organization's id). */
  byId: boolean;
  needs?: (keyof Ids)[];
  request: (ids: Ids, encrypt: (value: string) => string) => { method: string; path: string; body?: Json };
}

let serial = 0;
const unique = () => {
  serial += 1;
  return `${Date.now().toString(36)}${serial}`;
};

/**
 * The role matrix: every admin route × {anonymous, member, admin, owner} × {own organization, another
 * organization}. In its own organization only an admin or owner succeeds; with another organization's
 * ids they get 404, and a token of one organization is refused in another (401): no cell crosses.
 */
describe('admin area: the role matrix', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  const own = 'acme';
  const other = 'app';
  const actors = {} as Record<
    Role,
    Actor | { token?: string; tenant: string; encrypt: (v: string) => string }
  >;
  const owners = {} as Record<string, Actor>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ ALLOW_PRIVATE_PROVIDER_URLS: 'true', OPENAI_BASE_URL: model.url });
    owners[own] = await loginOwner(server, own);
    owners[other] = await loginOwner(server, other);
    const plain = await member(server, own, 'member');
    const anAdmin = await member(server, own, 'admin');
    actors.anonymous = { tenant: own, encrypt: owners[own].encrypt };
    actors.member = { token: plain.token, tenant: own, encrypt: plain.encrypt };
    actors.admin = { token: anAdmin.token, tenant: own, encrypt: anAdmin.encrypt };
    actors.owner = owners[own];
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  /** Fresh records of `tenant`, made by its owner. */
  async function fixture(tenant: string, needs: (keyof Ids)[]): Promise<Ids> {
    const owner = owners[tenant];
    const ids = { bot: 'none', category: 'none', provider: 'none', member: 'none', invitation: 'none' };
    if (needs.includes('category') || needs.includes('bot')) {
      const category = await admin(server, owner, '/category', {
        body: { name: owner.encrypt(`Cat ${unique()}`) },
      });
      ids.category = category.body._id;
    }
    if (needs.includes('provider')) {
      const provider = await admin(server, owner, '/provider', {
        body: { name: owner.encrypt(`Prov ${unique()}`), baseUrl: model.url, apiKey: 'sk-matrix-key-0001' },
      });
      ids.provider = provider.body._id;
    }
    if (needs.includes('bot')) {
      const bot = await admin(server, owner, '/bot', {
        body: {
          name: owner.encrypt(`Bot ${unique()}`),
          description: 'matrix',
          platform: 'builtin',
          engine: 'eliza',
          price: 0,
          categories: [ids.category],
          active: true,
        },
      });
      ids.bot = bot.body._id;
    }
    if (needs.includes('member')) ids.member = (await signUp(server, tenant)).id;
    if (needs.includes('invitation')) {
      const email = `invited${unique()}@example.org`;
      await admin(server, owner, '/member/invite', { body: { email: owner.encrypt(email), role: 'member' } });
      const listed = (await admin(server, owner, '/invitation')).body as Json[];
      ids.invitation = listed.find((item) => item.email === email)._id;
    }
    return ids;
  }

  const routes: Route[] = [
    { name: 'GET /bot', byId: false, request: () => ({ method: 'GET', path: '/bot' }) },
    {
      name: 'POST /bot',
      byId: false,
      request: (_ids, encrypt) => ({
        method: 'POST',
        path: '/bot',
        body: {
          name: encrypt(`New ${unique()}`),
          description: 'x',
          platform: 'builtin',
          engine: 'calculator',
          price: 0,
          categories: [],
          active: false,
        },
      }),
    },
    {
      name: 'PATCH /bot/:id',
      byId: true,
      needs: ['bot'],
      request: (ids) => ({ method: 'PATCH', path: `/bot/${ids.bot}`, body: { description: 'changed' } }),
    },
    {
      name: 'DELETE /bot/:id',
      byId: true,
      needs: ['bot'],
      request: (ids) => ({ method: 'DELETE', path: `/bot/${ids.bot}` }),
    },
    {
      name: 'POST /bot/:id/try',
      byId: true,
      needs: ['bot'],
      request: (ids) => ({
        method: 'POST',
        path: `/bot/${ids.bot}/try`,
        body: { messages: [{ role: 'user', text: 'hello' }] },
      }),
    },
    { name: 'GET /category', byId: false, request: () => ({ method: 'GET', path: '/category' }) },
    {
      name: 'POST /category',
      byId: false,
      request: (_ids, encrypt) => ({
        method: 'POST',
        path: '/category',
        body: { name: encrypt(`C ${unique()}`) },
      }),
    },
    {
      name: 'PATCH /category/:id',
      byId: true,
      needs: ['category'],
      request: (ids, encrypt) => ({
        method: 'PATCH',
        path: `/category/${ids.category}`,
        body: { name: encrypt(`Renamed ${unique()}`) },
      }),
    },
    {
      name: 'DELETE /category/:id',
      byId: true,
      needs: ['category'],
      request: (ids) => ({ method: 'DELETE', path: `/category/${ids.category}` }),
    },
    { name: 'GET /provider', byId: false, request: () => ({ method: 'GET', path: '/provider' }) },
    {
      name: 'POST /provider',
      byId: false,
      request: (_ids, encrypt) => ({
        method: 'POST',
        path: '/provider',
        body: { name: encrypt(`P ${unique()}`), baseUrl: model.url, apiKey: 'sk-another-key-9999' },
      }),
    },
    {
      name: 'PATCH /provider/:id',
      byId: true,
      needs: ['provider'],
      request: (ids, encrypt) => ({
        method: 'PATCH',
        path: `/provider/${ids.provider}`,
        body: { name: encrypt(`P renamed ${unique()}`) },
      }),
    },
    {
      name: 'DELETE /provider/:id',
      byId: true,
      needs: ['provider'],
      request: (ids) => ({ method: 'DELETE', path: `/provider/${ids.provider}` }),
    },
    {
      name: 'GET /provider/:id/models',
      byId: true,
      needs: ['provider'],
      request: (ids) => ({ method: 'GET', path: `/provider/${ids.provider}/models` }),
    },
    {
      name: 'GET /provider/server',
      byId: false,
      request: () => ({ method: 'GET', path: '/provider/server' }),
    },
    {
      name: 'GET /provider/server/models',
      byId: false,
      request: () => ({ method: 'GET', path: '/provider/server/models' }),
    },
    { name: 'GET /member', byId: false, request: () => ({ method: 'GET', path: '/member?q=&cursor=' }) },
    {
      name: 'POST /member/invite',
      byId: false,
      request: (_ids, encrypt) => ({
        method: 'POST',
        path: '/member/invite',
        body: { email: encrypt(`invitee${unique()}@example.org`), role: 'member' },
      }),
    },
    { name: 'GET /invitation', byId: false, request: () => ({ method: 'GET', path: '/invitation' }) },
    {
      name: 'POST /invitation/:id/resend',
      byId: true,
      needs: ['invitation'],
      request: (ids) => ({ method: 'POST', path: `/invitation/${ids.invitation}/resend` }),
    },
    {
      name: 'DELETE /invitation/:id',
      byId: true,
      needs: ['invitation'],
      request: (ids) => ({ method: 'DELETE', path: `/invitation/${ids.invitation}` }),
    },
    {
      name: 'PATCH /member/:id',
      byId: true,
      needs: ['member'],
      request: (ids) => ({ method: 'PATCH', path: `/member/${ids.member}`, body: { role: 'member' } }),
    },
    {
      name: 'POST /member/:id/credit',
      byId: true,
      needs: ['member'],
      request: (ids) => ({
        method: 'POST',
        path: `/member/${ids.member}/credit`,
        body: { amount: 1, note: 'matrix' },
      }),
    },
    { name: 'GET /settings', byId: false, request: () => ({ method: 'GET', path: '/settings' }) },
    {
      name: 'PATCH /settings',
      byId: false,
      request: () => ({ method: 'PATCH', path: '/settings', body: { defaultLanguage: 'en' } }),
    },
    { name: 'GET /usage', byId: false, request: () => ({ method: 'GET', path: '/usage?days=30' }) },
    {
      name: 'GET /usage (csv)',
      byId: false,
      request: () => ({ method: 'GET', path: '/usage?days=7&format=csv' }),
    },
    { name: 'GET /audit', byId: false, request: () => ({ method: 'GET', path: '/audit' }) },
    { name: 'GET /feedback', byId: false, request: () => ({ method: 'GET', path: '/feedback' }) },
  ];

  /** What each cell must answer: 'ok' is any 2xx. */
  const expected = (route: Route, role: Role, where: Where): number | 'ok' => {
    if (role === 'anonymous') return 401;
    if (where === 'other' && !route.byId) return 401; // the token belongs to another organization
    if (role === 'member') return 403;
    return where === 'own' ? 'ok' : 404;
  };

  for (const route of routes) {
    it(`${route.name}: only an admin or owner of the organization`, async () => {
      const answers: Record<string, number | 'ok'> = {};
      const wanted: Record<string, number | 'ok'> = {};
      for (const where of ['own', 'other'] as Where[]) {
        for (const role of roles) {
          const actor = actors[role];
          // Another organization: its ids with the actor's own organization, or the actor's token there.
          const ids = await fixture(where === 'other' && route.byId ? other : own, route.needs ?? []);
          const { method, path, body } = route.request(ids, actor.encrypt);
          const tenant = where === 'other' && !route.byId ? other : own;
          const answer = await call(server, `/api/v1/admin${path}`, {
            method,
            body,
            token: actor.token,
            tenant,
          });
          const key = `${where}/${role}`;
          answers[key] = answer.status >= 200 && answer.status < 300 ? 'ok' : answer.status;
          wanted[key] = expected(route, role, where);
        }
      }
      expect(answers).toEqual(wanted);
    });
  }

  it('refuses before reading the body: 401 anonymous and 403 member whatever they send', async () => {
    const garbage = [{ bogus: true }, { name: 'not encrypted' }, 'not json at all', []];
    for (const body of garbage) {
      for (const path of ['/bot', '/category', '/provider', '/member/invite']) {
        const anonymous = await call(server, `/api/v1/admin${path}`, {
          method: 'POST',
          body,
          tenant: own,
          headers: { 'content-type': 'application/json' },
        });
        expect(anonymous.status).toBe(401);
        const asMember = await call(server, `/api/v1/admin${path}`, {
          method: 'POST',
          body,
          token: actors.member.token,
          tenant: own,
          headers: { 'content-type': 'application/json' },
        });
        expect(asMember.status).toBe(403);
        expect(asMember.body.error).toMatch(/administrator/);
      }
    }
  });

  it('0 crossings: lists of one organization never show another’s records', async () => {
    const otherIds = await fixture(other, ['bot', 'provider', 'member', 'invitation']);
    const ownerHere = owners[own];
    const bodies = await Promise.all(
      ['/bot', '/category', '/provider', '/member', '/invitation', '/audit', '/usage'].map((path) =>
        admin(server, ownerHere, path).then((answer) => JSON.stringify(answer.body)),
      ),
    );
    for (const id of Object.values(otherIds)) for (const body of bodies) expect(body).not.toContain(id);
  });
});
