import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, type Json, postMessage, signUp, startApp, type TestServer } from '../support/app';
import { type Nodes, startTwoNodes } from '../support/nodes';
import { readEvents } from '../support/sse';
import { admin, loginOwner, member } from './admin/support';

interface Viewer {
  token?: string;
  tenant: string;
}

/** Sends a message as the web app does and reads the reply to its end. */
async function say(server: TestServer, user: Viewer, topic: string, text: string, parent?: string | null) {
  const response = await postMessage(server, user, topic, parent === undefined ? { text } : { text, parent });
  const events = await readEvents(response);
  expect(events.at(-1)?.event).toBe('done');
}

/** A topic of `user` with ELIZA (a builtin bot: no model server needed) and the given exchanges. */
async function conversation(server: TestServer, user: Viewer, texts: string[]) {
  const eliza = (await call(server, '/api/v1/bot', { token: user.token, tenant: user.tenant })).body.find(
    (bot: { name: string }) => bot.name === 'ELIZA',
  )._id;
  const topic = (
    await call(server, '/api/v1/topic', { token: user.token, tenant: user.tenant, body: { bot: eliza } })
  ).body._id as string;
  for (const text of texts) await say(server, user, topic, text);
  return topic;
}

const share = (server: TestServer, user: Viewer, topic: string, body: Json) =>
  call(server, `/api/v1/topic/${topic}/share`, { token: user.token, tenant: user.tenant, body });
const view = (server: TestServer, viewer: Viewer, id: string) =>
  call(server, `/api/v1/share/${id}`, { token: viewer.token, tenant: viewer.tenant });

describe('shared conversations', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.close());

  it('shares with the organization or the public: a role × tenant × audience matrix with no crossing', async () => {
    const sharer = await signUp(server, 'acme');
    const viewers: Record<string, Viewer> = {
      sharer,
      owner: await loginOwner(server, 'acme'),
      admin: await member(server, 'acme', 'admin'),
      member: await signUp(server, 'acme'),
      'logged out': { tenant: 'acme' },
      'other organization': await signUp(server, 'app'),
    };
    const other = viewers['other organization'];
    // Someone of another organization who opens the link on this organization's host is a visitor.
    viewers["other organization's token here"] = { token: other.token, tenant: 'acme' };
    const expected: Record<string, { organization: number; public: number }> = {
      sharer: { organization: 200, public: 200 },
      owner: { organization: 200, public: 200 },
      admin: { organization: 200, public: 200 },
      member: { organization: 200, public: 200 },
      'logged out': { organization: 404, public: 200 },
      'other organization': { organization: 404, public: 404 },
      "other organization's token here": { organization: 404, public: 200 },
    };
    const crossings: string[] = [];
    for (const audience of ['organization', 'public'] as const) {
      const topic = await conversation(server, sharer, [`Hello for ${audience}`]);
      const made = await share(server, sharer, topic, { audience });
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({ audience, topic, url: `/s/${made.body._id}` });
      // Unguessable: at least 128 random bits in base64url.
      expect(made.body._id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      for (const [who, viewer] of Object.entries(viewers)) {
        const answer = await view(server, viewer, made.body._id);
        if (answer.status !== expected[who][audience])
          crossings.push(`${who} × ${audience}: ${answer.status}, expected ${expected[who][audience]}`);
        if (answer.status === 200) {
          expect(answer.body.messages[0]).toMatchObject({ role: 'user', text: `Hello for ${audience}` });
          expect(answer.headers.get('x-robots-tag')).toBe('noindex');
        } else expect(answer.body).toMatchObject({ code: 'NOT_FOUND', error: expect.any(String) });
      }
    }
    expect(crossings).toEqual([]);
  });

  it("snapshots the branch on screen: not later messages, not other branches, not the sharer's email or balance", async () => {
    const sharer = await signUp(server, 'app');
    const topic = await conversation(server, sharer, ['I am on the first branch']);
    await say(server, sharer, topic, 'I am on the second branch');
    // Edit the first message: a sibling branch from the root, which becomes the one on screen.
    await say(server, sharer, topic, 'An edited start', null);
    const made = await share(server, sharer, topic, { audience: 'public' });
    const snapshot = (await view(server, { tenant: 'app' }, made.body._id)).body;
    expect(Object.keys(snapshot).sort()).toEqual(['_id', 'audience', 'bot', 'messages', 'sharedAt', 'title']);
    // The topic was titled after its first message, which is on the branch left out.
    expect(snapshot.title).toBe('An edited start');
    expect(snapshot.bot).toMatchObject({ name: 'ELIZA', platform: { name: 'builtin' } });
    expect(snapshot.messages.map((message: Json) => message.role)).toEqual(['user', 'bot']);
    expect(snapshot.messages[0].text).toBe('An edited start');
    for (const message of snapshot.messages)
      expect(Object.keys(message).sort()).toEqual(['createdAt', 'role', 'text']);
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain('first branch');
    expect(text).not.toContain('second branch');
    expect(text).not.toContain(sharer.email);
    expect(text).not.toContain(sharer.id);
    expect(text).not.toMatch(/balance|email|cost/i);

    // A message written after sharing is not in the snapshot…
    await say(server, sharer, topic, 'Written after sharing');
    expect(JSON.stringify((await view(server, { tenant: 'app' }, made.body._id)).body)).not.toContain(
      'Written after sharing',
    );
    // …and the other branch can be shared by naming its last message (the branch the client shows).
    const tree = (await call(server, `/api/v1/topic/${topic}`, { token: sharer.token })).body;
    const secondLeaf = tree.messages.find((message: Json) => message.text === 'I am on the second branch');
    const reply = tree.messages.find((message: Json) => message.parent === secondLeaf._id);
    const other = await share(server, sharer, topic, { audience: 'public', leaf: reply._id });
    expect(other.body._id).toBe(made.body._id);
    const texts = (await view(server, { tenant: 'app' }, made.body._id)).body.messages.map(
      (message: Json) => message.text,
    );
    expect(texts).toContain('I am on the second branch');
    expect(texts).not.toContain('An edited start');
    // A message of another topic is no leaf of this one.
    const elsewhere = await conversation(server, sharer, ['elsewhere']);
    const foreign = (await call(server, `/api/v1/topic/${elsewhere}`, { token: sharer.token })).body
      .messages[0];
    expect(await share(server, sharer, topic, { audience: 'public', leaf: foreign._id })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
  });

  it('shares again: the snapshot and the audience are updated, the link stays', async () => {
    const sharer = await signUp(server, 'app');
    const topic = await conversation(server, sharer, ['Before']);
    const first = await share(server, sharer, topic, { audience: 'organization' });
    await say(server, sharer, topic, 'After');
    const second = await share(server, sharer, topic, { audience: 'public' });
    expect(second.status).toBe(200);
    expect([second.body._id, second.body.url]).toEqual([first.body._id, first.body.url]);
    expect(second.body.audience).toBe('public');
    const seen = await view(server, { tenant: 'app' }, first.body._id);
    expect(seen.status).toBe(200);
    expect(seen.body.messages.map((message: Json) => message.text)).toContain('After');
    expect(new Date(second.body.sharedAt) >= new Date(first.body.sharedAt)).toBe(true);
    // One share per conversation in the user's list, and in "Download my data".
    const mine = await call(server, '/api/v1/share', { token: sharer.token });
    expect(mine.body.map((item: Json) => item._id)).toEqual([first.body._id]);
    const exported = await call(server, '/api/v1/user/me/export', { token: sharer.token });
    expect(exported.body.shares).toEqual(mine.body);
    expect((await call(server, `/api/v1/share?topic=${topic}`, { token: sharer.token })).body).toHaveLength(
      1,
    );
  });

  it('revokes: 404 from then on; deleting the conversation revokes its shares', async () => {
    const sharer = await signUp(server, 'app');
    const topic = await conversation(server, sharer, ['To be revoked']);
    const made = (await share(server, sharer, topic, { audience: 'public' })).body;
    const revoked = await call(server, `/api/v1/share/${made._id}`, {
      method: 'DELETE',
      token: sharer.token,
    });
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });
    expect((await view(server, sharer, made._id)).status).toBe(404);
    expect((await view(server, { tenant: 'app' }, made._id)).status).toBe(404);
    expect(
      (await call(server, `/api/v1/share/${made._id}`, { method: 'DELETE', token: sharer.token })).status,
    ).toBe(404);
    // Shared again after a revocation: a new link, the old one stays dead.
    const again = (await share(server, sharer, topic, { audience: 'public' })).body;
    expect(again._id).not.toBe(made._id);
    expect((await view(server, { tenant: 'app' }, made._id)).status).toBe(404);

    const removed = await call(server, `/api/v1/topic/${topic}`, { method: 'DELETE', token: sharer.token });
    expect(removed.status).toBe(200);
    expect((await view(server, { tenant: 'app' }, again._id)).status).toBe(404);
    expect((await call(server, '/api/v1/share', { token: sharer.token })).body).toEqual([]);
  });

  it("lets nobody else share or revoke a member's conversation, nor list their shares", async () => {
    const sharer = await signUp(server, 'app');
    const colleague = await signUp(server, 'app');
    const owner = await loginOwner(server, 'app');
    const stranger = await signUp(server, 'acme');
    const topic = await conversation(server, sharer, ['Mine']);
    const made = (await share(server, sharer, topic, { audience: 'organization' })).body;
    for (const other of [colleague, owner, stranger]) {
      expect(await share(server, other, topic, { audience: 'public' })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
      const revoke = await call(server, `/api/v1/share/${made._id}`, {
        method: 'DELETE',
        token: other.token,
        tenant: other.tenant,
      });
      expect(revoke.status).toBe(404);
      const theirs = await call(server, '/api/v1/share', { token: other.token, tenant: other.tenant });
      expect(theirs.body.map((item: Json) => item._id)).not.toContain(made._id);
    }
    // Still there, still organization-wide.
    expect((await view(server, colleague, made._id)).body.audience).toBe('organization');
    // Logged out, nothing of the owner's side works.
    expect((await share(server, { tenant: 'app' }, topic, { audience: 'public' })).status).toBe(401);
    expect((await call(server, `/api/v1/share/${made._id}`, { method: 'DELETE' })).status).toBe(401);
    expect((await call(server, '/api/v1/share')).status).toBe(401);
  });

  it('refuses bad input with a 4xx and a message', async () => {
    const sharer = await signUp(server, 'app');
    const topic = await conversation(server, sharer, ['Hi']);
    const empty = await conversation(server, sharer, []);
    const cases: [string, Json, number][] = [
      [topic, {}, 400],
      [topic, { audience: 'everyone' }, 400],
      [topic, { audience: 'public', extra: 1 }, 400],
      [topic, { audience: 'public', leaf: '' }, 400],
      [topic, { audience: 'public', leaf: 'no-such-message' }, 404],
      ['no-such-topic', { audience: 'public' }, 404],
      [empty, { audience: 'public' }, 409],
    ];
    for (const [id, body, status] of cases) {
      const answer = await share(server, sharer, id, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.error).toEqual(expect.any(String));
    }
    const badIds = ['x', 'a'.repeat(65), '%27%3B--aaaaaaaaaaaaaaaaaa', 'AAAAAAAAAAAAAAAAAAAAAAAA'];
    for (const id of badIds) {
      const answer = await view(server, sharer, id);
      expect([400, 404]).toContain(answer.status);
      expect(answer.body.error).toEqual(expect.any(String));
    }
    expect((await call(server, '/api/v1/share?topic=', { token: sharer.token })).status).toBe(400);
  });

  it('turns public links off with the publicSharing setting, audited; organization shares go on', async () => {
    const owner = await loginOwner(server, 'acme');
    const sharer = await signUp(server, 'acme');
    const colleague = await signUp(server, 'acme');
    const open = (
      await share(server, sharer, await conversation(server, sharer, ['Public']), { audience: 'public' })
    ).body;
    const inside = (
      await share(server, sharer, await conversation(server, sharer, ['Inside']), {
        audience: 'organization',
      })
    ).body;
    expect((await admin(server, owner, '/settings')).body.publicSharing).toBe(true);
    // A member is no admin.
    expect(
      (await admin(server, sharer, '/settings', { method: 'PATCH', body: { publicSharing: false } })).status,
    ).toBe(403);
    expect(
      (await admin(server, owner, '/settings', { method: 'PATCH', body: { publicSharing: 'no' } })).status,
    ).toBe(400);
    try {
      const off = await admin(server, owner, '/settings', {
        method: 'PATCH',
        body: { publicSharing: false },
      });
      expect(off).toMatchObject({ status: 200, body: { publicSharing: false } });
      const entry = (await admin(server, owner, '/audit?limit=1')).body.items[0];
      expect(entry).toMatchObject({
        action: 'settings.update',
        actor: owner.id,
        before: { publicSharing: true },
        after: { publicSharing: false },
      });
      // The existing public link answers 404 to everyone, its sharer too; a new one is refused.
      for (const viewer of [{ tenant: 'acme' }, colleague, sharer])
        expect((await view(server, viewer, open._id)).status).toBe(404);
      const refused = await share(server, sharer, await conversation(server, sharer, ['Again']), {
        audience: 'public',
      });
      expect(refused).toMatchObject({ status: 403, body: { code: 'PUBLIC_SHARING_OFF' } });
      expect((await view(server, colleague, inside._id)).status).toBe(200);
      expect(
        (
          await call(server, `/api/v1/share/${open._id}/continue`, {
            token: colleague.token,
            tenant: 'acme',
            body: {},
          })
        ).status,
      ).toBe(404);
    } finally {
      await admin(server, owner, '/settings', { method: 'PATCH', body: { publicSharing: true } });
    }
    expect((await view(server, { tenant: 'acme' }, open._id)).status).toBe(200);
  });

  it("continues a share as the viewer's own new conversation with the same bot", async () => {
    const sharer = await signUp(server, 'app');
    const viewer = await signUp(server, 'app');
    const topic = await conversation(server, sharer, ['Tell me about shares', 'And more']);
    const made = (await share(server, sharer, topic, { audience: 'organization' })).body;
    await call(server, `/api/v1/topic/${topic}`, {
      method: 'PATCH',
      token: sharer.token,
      body: { title: 'Shares' },
    });
    const snapshot = (await view(server, viewer, made._id)).body;
    const forked = await call(server, `/api/v1/share/${made._id}/continue`, {
      token: viewer.token,
      body: {},
    });
    expect(forked.status).toBe(201);
    const mine = (await call(server, `/api/v1/topic/${forked.body._id}`, { token: viewer.token })).body;
    expect(mine._id).not.toBe(topic);
    expect(mine.bot._id).toBe(snapshot.bot._id);
    expect(mine.messages.map((message: Json) => [message.role, message.text])).toEqual(
      snapshot.messages.map((message: Json) => [message.role, message.text]),
    );
    expect(mine.head).toBe(mine.messages.at(-1)._id);
    expect(mine.messages.every((message: Json) => message.status === 'complete')).toBe(true);
    // The copy goes on like any conversation of the viewer's…
    await say(server, viewer, forked.body._id, 'Continuing');
    const after = (await call(server, `/api/v1/topic/${forked.body._id}`, { token: viewer.token })).body;
    expect(after.messages.at(-2)).toMatchObject({ text: 'Continuing', parent: mine.head });
    // …and the sharer's conversation is untouched.
    const original = (await call(server, `/api/v1/topic/${topic}`, { token: sharer.token })).body;
    expect(original.messages.map((message: Json) => message.text)).not.toContain('Continuing');
    // A visitor must log in first; another organization's member finds nothing.
    expect(
      (await call(server, `/api/v1/share/${made._id}/continue`, { tenant: 'app', body: {} })).status,
    ).toBe(401);
    const stranger = await signUp(server, 'acme');
    expect(
      (
        await call(server, `/api/v1/share/${made._id}/continue`, {
          token: stranger.token,
          tenant: 'acme',
          body: {},
        })
      ).status,
    ).toBe(404);
    // A bot limited to groups the viewer is in none of: the share can be read, not continued.
    const { rows } = await server.app.db.query<{ id: string }>(
      "insert into groups (tenant, name) values ('app', $1) returning id",
      [`Only some ${Date.now()}`],
    );
    await server.app.db.query('insert into bot_groups (bot_id, group_id) values ($1, $2)', [
      snapshot.bot._id,
      rows[0].id,
    ]);
    try {
      expect((await view(server, viewer, made._id)).status).toBe(200);
      expect(
        await call(server, `/api/v1/share/${made._id}/continue`, { token: viewer.token, body: {} }),
      ).toMatchObject({ status: 403, body: { code: 'BOT_NOT_ALLOWED' } });
    } finally {
      await server.app.db.query('delete from groups where id = $1', [rows[0].id]);
    }
    // A public share is continued by a member of its organization too.
    const open = (await share(server, sharer, topic, { audience: 'public' })).body;
    expect(open._id).toBe(made._id);
    expect(
      (await call(server, `/api/v1/share/${made._id}/continue`, { token: viewer.token, body: {} })).status,
    ).toBe(201);
  });
});

/** Two nodes on one PostgreSQL: a revocation on one is a 404 on the other at once. */
describe('shares across nodes', () => {
  let nodes: Nodes;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    nodes = await startTwoNodes();
    ({ a, b } = nodes);
  }, 90_000);
  afterAll(async () => {
    await nodes?.stop();
  });

  it('answers 404 on the other node as soon as a share is revoked or its conversation deleted', async () => {
    const sharer = await signUp(a, 'app');
    expect(Object.keys(await botIds(a))).toContain('ELIZA');
    const topic = await conversation(a, sharer, ['Across nodes']);
    const made = (await share(a, sharer, topic, { audience: 'public' })).body;
    // Node b reads it (twice: nothing it might keep would survive the revocation).
    for (let read = 0; read < 2; read += 1)
      expect((await view(b, { tenant: 'app' }, made._id)).status).toBe(200);
    await call(a, `/api/v1/share/${made._id}`, { method: 'DELETE', token: sharer.token });
    expect((await view(b, { tenant: 'app' }, made._id)).status).toBe(404);

    const again = (await share(b, sharer, topic, { audience: 'organization' })).body;
    expect((await view(a, sharer, again._id)).status).toBe(200);
    await call(b, `/api/v1/topic/${topic}`, { method: 'DELETE', token: sharer.token });
    expect((await view(a, sharer, again._id)).status).toBe(404);
  });

  it('takes a project shared through a group from a member who leaves it at once, on every node', async () => {
    const [owner, reader] = await Promise.all([signUp(a), signUp(a)]);
    const orgOwner = await loginOwner(a, 'app');
    const group = (await admin(a, orgOwner, '/group', { body: { name: orgOwner.encrypt('Across nodes') } }))
      .body._id;
    const project = (
      await call(a, '/api/v1/project', {
        token: owner.token,
        body: { name: owner.encrypt('Shared'), groups: [group] },
      })
    ).body._id;
    const read = async (node: TestServer) =>
      (await call(node, `/api/v1/project/${project}`, { token: reader.token })).status;
    expect([await read(a), await read(b)]).toEqual([404, 404]);
    await admin(b, orgOwner, `/group/${group}/members`, { method: 'PUT', body: { members: [reader.id] } });
    // Read twice on each node: nothing either might keep would survive leaving.
    for (let round = 0; round < 2; round += 1) expect([await read(a), await read(b)]).toEqual([200, 200]);
    const eliza = (await botIds(b)).ELIZA;
    const topic = await call(b, '/api/v1/topic', { token: reader.token, body: { bot: eliza, project } });
    expect(topic.body.project).toBe(project);
    await admin(a, orgOwner, `/group/${group}/members`, { method: 'PUT', body: { members: [] } });
    expect([await read(b), await read(a)]).toEqual([404, 404]);
    expect(
      (await call(b, `/api/v1/topic/${topic.body._id}`, { token: reader.token })).body.project,
    ).toBeNull();
  });
});
