import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../support/openai-double';
import { type Actor, admin, loginOwner } from './admin/support';
import { upload } from './files/support';
import { billing, newKey, openAiClient, replyText, say, type User } from './tools/support';

/** Ten-thousandths, to compare amounts exactly. */
const exact = (amount: number) => Math.round(amount * 10_000);

describe("members' own bots: made on the catalogue's models, seen by their visibility, retired by admins", () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let owner: Actor;
  let acmeOwner: Actor;
  let open: string;
  let closed: string;
  let group: string;
  let alice: User;
  let bob: User;
  let carol: User;
  let dave: User;
  let handbook: string;
  let bobsFile: string;
  const bots: Record<'private' | 'groups' | 'organization', string> = {
    private: '',
    groups: '',
    organization: '',
  };

  const as = (user: User | Actor, path: string, options: Json = {}) =>
    call(server, path, { token: user.token, tenant: user.tenant, ...options });
  const make = (user: User, body: Json) =>
    as(user, '/api/v1/user/me/bot', { body: { ...body, name: user.encrypt(body.name) } });
  const change = (user: User, id: string, body: Json) =>
    as(user, `/api/v1/user/me/bot/${id}`, {
      method: 'PATCH',
      body: body.name === undefined ? body : { ...body, name: user.encrypt(body.name) },
    });
  const settings = (actor: Actor, body: Json) => admin(server, actor, '/settings', { method: 'PATCH', body });
  const startTopic = (user: User, bot: string) => as(user, '/api/v1/topic', { body: { bot } });
  const listed = async (user: User) =>
    ((await as(user, '/api/v1/bot')).body as Json[]).filter((bot) => bot.owner);

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url });
    [owner, acmeOwner] = await Promise.all([loginOwner(server, 'app'), loginOwner(server, 'acme')]);
    // The catalogue through the admin API (the models helper's routes).
    const addModel = async (fields: Json) => {
      const answer = await admin(server, owner, '/model', {
        body: { provider: null, ...fields, name: owner.encrypt(fields.name) },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body._id as string;
    };
    open = await addModel({ name: 'Open model', model: 'double-members', price: 0.03, memberBots: true });
    closed = await addModel({ name: 'Admins only', model: 'double-admins', price: 0.01 });
    [alice, bob, carol, dave] = await Promise.all([
      signUp(server),
      signUp(server),
      signUp(server),
      signUp(server, 'acme'),
    ]);
    group = (await admin(server, owner, '/group', { body: { name: owner.encrypt('Writers') } })).body._id;
    await admin(server, owner, `/group/${group}/members`, {
      method: 'PUT',
      body: { members: [alice.id, bob.id] },
    });
    const text = (words: string) =>
      Buffer.from(`${words} ${'Filler sentence about nothing in particular. '.repeat(40)}`);
    handbook = (
      await upload(
        server,
        alice,
        text('The office parrot is called Captain Biscuit.'),
        'handbook.txt',
        'text/plain',
      )
    ).body._id;
    bobsFile = (await upload(server, bob, text('Bob keeps his diary here.'), 'diary.txt', 'text/plain')).body
      ._id;
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('is refused while the organization does not allow it (403 MEMBER_BOTS_OFF)', async () => {
    expect((await admin(server, owner, '/settings')).body).toMatchObject({
      memberBots: false,
      memberBotTools: [],
    });
    const off = await make(alice, { name: 'Too early', model: open, visibility: 'private' });
    expect(off.status).toBe(403);
    expect(off.body.code).toBe('MEMBER_BOTS_OFF');
    expect((await as(alice, '/api/v1/user/me/bot')).body).toEqual([]);
    // The admins switch it on (audited like every setting) and let members give their bots one tool.
    const on = await settings(owner, { memberBots: true, memberBotTools: ['current_time', 'current_time'] });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ memberBots: true, memberBotTools: ['current_time'] });
    const unknownTool = await settings(owner, { memberBotTools: ['no_such_tool'] });
    expect(unknownTool.status).toBe(400);
    expect(unknownTool.body.field).toBe('memberBotTools');
    const log = (await admin(server, owner, '/audit')).body.items as Json[];
    expect(log.find((entry) => entry.action === 'settings.update')).toMatchObject({
      before: { memberBots: false },
      after: { memberBots: true, memberBotTools: ['current_time'] },
    });
    expect((await as(alice, '/api/v1/organization/app')).body.memberBots).toBe(true);
  });

  it('makes a bot of what the member may use, and refuses anything else, naming the field', async () => {
    const choices = (await as(alice, '/api/v1/user/me/bot/choices')).body;
    expect(choices).toEqual({
      tools: [{ name: 'current_time', description: expect.any(String) }],
      groups: [{ _id: group, name: 'Writers' }],
    });
    const made = await make(alice, {
      name: '  Parrot   expert ',
      description: 'Knows the office.',
      instructions: 'Always answer like a pirate.',
      starters: ['  Who is the parrot? ', '', 'Who is the parrot?'],
      model: open,
      files: [handbook],
      tools: ['current_time'],
      visibility: 'private',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      _id: expect.any(String),
      name: 'Parrot expert',
      description: 'Knows the office.',
      instructions: 'Always answer like a pirate.',
      starters: ['Who is the parrot?'],
      model: open,
      files: [{ _id: handbook, name: 'handbook.txt', type: 'text/plain', size: expect.any(Number) }],
      tools: ['current_time'],
      visibility: 'private',
      groups: [],
      retired: false,
    });
    bots.private = made.body._id;

    const refused = async (body: Json, status: number, field?: string) => {
      const answer = await make(alice, { name: 'Refused', model: open, visibility: 'private', ...body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.error).toEqual(expect.any(String));
      if (field) expect(answer.body.field).toBe(field);
    };
    await refused({ name: 'Parrot expert' }, 409, 'name');
    await refused({ model: closed }, 404, 'model');
    await refused({ model: 'no-such-model' }, 404, 'model');
    // Never another member's files.
    await refused({ files: [bobsFile] }, 404, 'files');
    await refused({ tools: ['fetch_url'] }, 400, 'tools');
    await refused({ visibility: 'groups' }, 400, 'groups');
    await refused({ visibility: 'organization', groups: [group] }, 400, 'groups');
    await refused({ visibility: 'everyone' }, 400);
    const lonely = (await admin(server, owner, '/group', { body: { name: owner.encrypt('Not hers') } })).body
      ._id;
    await refused({ visibility: 'groups', groups: [lonely] }, 404, 'groups');
    await refused({ name: 'x'.repeat(81) }, 400, 'name');
    const plain = await as(alice, '/api/v1/user/me/bot', {
      body: { name: 'In clear', model: open, visibility: 'private' },
    });
    expect(plain.status).toBe(400);
    expect((await as(alice, '/api/v1/user/me/bot')).body).toHaveLength(1);

    const shared = await make(alice, {
      name: 'Writers helper',
      model: open,
      visibility: 'groups',
      groups: [group],
    });
    expect(shared.status).toBe(201);
    expect(shared.body.groups).toEqual([group]);
    bots.groups = shared.body._id;
    bots.organization = (
      await make(alice, {
        name: 'Everyone helper',
        instructions: 'Be brief.',
        model: open,
        visibility: 'organization',
      })
    ).body._id;
    // Another member names his own bot as he likes.
    expect((await make(bob, { name: 'Parrot expert', model: open, visibility: 'private' })).status).toBe(201);
  });

  it('reaches the model with its instructions and its files, on its model, at its price', async () => {
    const topic = await startTopic(alice, bots.private);
    expect(topic.status).toBe(201);
    const before = await billing(server, alice);
    model.requests.length = 0;
    const events = await say(server, alice, topic.body._id, 'What is the parrot called?');
    expect(events.at(-1)?.event).toBe('done');
    expect(replyText(events)).toContain('What is the parrot called?');
    const [request] = model.requests;
    expect(request.model).toBe('double-members');
    const system = request.messages
      .filter((message) => message.role === 'system')
      .map((message) => textOf(message.content))
      .join('\n');
    expect(system).toContain('Always answer like a pirate.');
    // Its maker's file is searched for the question.
    expect(JSON.stringify(request.messages)).toContain('Captain Biscuit');
    // Its tool, beside the member's own `remember`.
    expect(request.tools?.map((tool) => tool.function.name)).toContain('current_time');
    const after = await billing(server, alice);
    expect(exact(before.balance - after.balance)).toBe(exact(0.03));

    // Bob asks Alice's organization-wide bot: her bot's own files only, never his.
    await change(alice, bots.organization, { files: [handbook] });
    const his = await startTopic(bob, bots.organization);
    model.requests.length = 0;
    await say(server, bob, his.body._id, 'Tell me about the diary and the parrot.');
    const sent = JSON.stringify(model.requests[0].messages);
    expect(sent).toContain('Be brief.');
    expect(sent).toContain('Captain Biscuit');
    expect(sent).not.toContain('Bob keeps his diary');

    // A conversation that carried the bot's file is deleted: the file stays the bot's.
    const carried = (await startTopic(alice, bots.private)).body._id;
    await as(alice, `/api/v1/topic/${carried}/message`, { body: { text: 'Read this.', files: [handbook] } });
    expect((await as(alice, `/api/v1/topic/${carried}`, { method: 'DELETE' })).status).toBe(200);
    const kept = ((await as(alice, '/api/v1/user/me/bot')).body as Json[]).find(
      (bot) => bot._id === bots.private,
    );
    expect(kept.files.map((file: Json) => file._id)).toEqual([handbook]);

    // Its files are indexed once, like a project's (full text and vectors), while a bot holds them.
    const documents = async () =>
      (
        await server.app.db.query<{ status: string }>(
          'select status from knowledge_documents where file_id = $1',
          [handbook],
        )
      ).rows.map((row) => row.status);
    await expect.poll(documents, { timeout: 15_000 }).toEqual(['ready']);
    await change(alice, bots.organization, { files: [] });
    expect(await documents()).toEqual(['ready']);
    await change(alice, bots.private, { files: [] });
    expect(await documents()).toEqual([]);
    await change(alice, bots.private, { files: [handbook] });
    await change(alice, bots.organization, { files: [handbook] });
    await expect.poll(documents, { timeout: 15_000 }).toEqual(['ready']);
  });

  it('is seen and used by exactly those its visibility names: 0 crossings of members, groups, organizations', async () => {
    // Who may use what: the maker all three; Bob (in Writers) groups and organization; Carol (not in
    // it) organization only; Dave (another organization) none.
    const expected: Record<string, (keyof typeof bots)[]> = {
      alice: ['private', 'groups', 'organization'],
      bob: ['groups', 'organization'],
      carol: ['organization'],
      dave: [],
    };
    const people: Record<string, User> = { alice, bob, carol, dave };
    const key = Object.fromEntries(
      await Promise.all(
        Object.entries(people).map(async ([name, user]) => [name, (await newKey(server, user)).key]),
      ),
    );
    for (const [name, user] of Object.entries(people)) {
      const mayUse = expected[name];
      const catalogue = await listed(user);
      const apiModels = (await openAiClient(server, key[name]).models.list()).data.map((entry) => entry.id);
      for (const [visibility, id] of Object.entries(bots) as [keyof typeof bots, string][]) {
        const allowed = mayUse.includes(visibility);
        const where = `${name} × ${visibility}`;
        expect(
          catalogue.some((bot) => bot._id === id),
          where,
        ).toBe(allowed);
        expect(apiModels.includes(id), where).toBe(allowed);
        const started = await startTopic(user, id);
        expect(started.status, where).toBe(allowed ? 201 : 404);
        if (!allowed) expect(started.body.code, where).toBe('BOT_NOT_FOUND');
        // A project's default bot: the same rule.
        const project = await as(user, '/api/v1/project', {
          body: { name: user.encrypt(`Project ${visibility}`), bot: id },
        });
        expect(project.status, where).toBe(allowed ? 201 : 404);
        // The API by id: another member's bot not shared is a model that does not exist.
        const api = await fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key[name]}` },
          body: JSON.stringify({ model: id, messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(api.status, where).toBe(allowed ? 200 : 404);
      }
    }
    const listedBot = (await listed(carol)).find((bot) => bot._id === bots.organization);
    expect(listedBot).toMatchObject({
      name: 'Everyone helper',
      owner: { _id: alice.id, name: alice.displayName },
      models: [{ _id: open, name: 'Open model' }],
      price: 0.03,
      active: true,
    });
    const starters = (await listed(alice)).find((bot) => bot._id === bots.private);
    expect(starters.starters).toEqual(['Who is the parrot?']);

    // Bob leaves Writers: the groups bot is no longer his to use, even in the conversation he had.
    const his = await startTopic(bob, bots.groups);
    await admin(server, owner, `/group/${group}/members`, { method: 'PUT', body: { members: [alice.id] } });
    const refused = await as(bob, `/api/v1/topic/${his.body._id}/message`, {
      body: { text: 'Still there?' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('BOT_NOT_ALLOWED');
    expect((await listed(bob)).some((bot) => bot._id === bots.groups)).toBe(false);
    await admin(server, owner, `/group/${group}/members`, {
      method: 'PUT',
      body: { members: [alice.id, bob.id] },
    });

    // A private bot's conversation shared with the organization: read, never continued by another.
    const topic = (await startTopic(alice, bots.private)).body._id;
    await say(server, alice, topic, 'Hello parrot.');
    const share = await as(alice, `/api/v1/topic/${topic}/share`, { body: { audience: 'organization' } });
    expect(share.status).toBe(200);
    const continued = await as(carol, `/api/v1/share/${share.body._id}/continue`, { body: {} });
    expect(continued.status).toBe(403);
    expect(continued.body.code).toBe('BOT_NOT_ALLOWED');
  });

  it("changes and deletes only the member's own bots; another member's is 404", async () => {
    const renamed = await change(alice, bots.groups, { name: 'Writers aid', visibility: 'organization' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Writers aid', visibility: 'organization', groups: [] });
    const back = await change(alice, bots.groups, { visibility: 'groups', groups: [group] });
    expect(back.body).toMatchObject({ visibility: 'groups', groups: [group] });
    for (const user of [bob, carol, dave]) {
      expect((await change(user, bots.groups, { description: 'Mine now' })).status).toBe(404);
      expect((await as(user, `/api/v1/user/me/bot/${bots.groups}`, { method: 'DELETE' })).status).toBe(404);
    }
    expect((await change(alice, bots.groups, {})).status).toBe(400);
    expect((await change(alice, bots.groups, { tools: ['calculator'] })).body.field).toBe('tools');
    // A tool the admins take off the list leaves the members' bots at once.
    await settings(owner, { memberBotTools: [] });
    const mine = (await as(alice, '/api/v1/user/me/bot')).body as Json[];
    expect(mine.find((bot) => bot._id === bots.private).tools).toEqual([]);
    // Off again: no new bots, no changes; deleting still works.
    await settings(owner, { memberBots: false });
    expect((await change(alice, bots.groups, { description: 'x' })).body.code).toBe('MEMBER_BOTS_OFF');
    const unused = (await make(bob, { name: 'Unused', model: open, visibility: 'private' })).body.code;
    expect(unused).toBe('MEMBER_BOTS_OFF');
    await settings(owner, { memberBots: true });
    const spare = (await make(alice, { name: 'Spare', model: open, visibility: 'private' })).body._id;
    expect((await as(alice, `/api/v1/user/me/bot/${spare}`, { method: 'DELETE' })).body).toEqual({
      success: true,
    });
    // A bot conversations name is kept for them, answering no more; its name is free again.
    const topic = (await startTopic(alice, bots.groups)).body._id;
    expect((await as(alice, `/api/v1/user/me/bot/${bots.groups}`, { method: 'DELETE' })).status).toBe(200);
    expect(((await as(alice, '/api/v1/user/me/bot')).body as Json[]).map((bot) => bot.name)).toEqual([
      'Everyone helper',
      'Parrot expert',
    ]);
    const gone = await as(alice, `/api/v1/topic/${topic}/message`, { body: { text: 'Hello?' } });
    expect(gone.status).toBe(403);
    expect(gone.body.code).toBe('BOT_RETIRED');
    expect((await admin(server, owner, '/bot')).body.some((bot: Json) => bot._id === bots.groups)).toBe(
      false,
    );
    expect((await make(alice, { name: 'Writers aid', model: open, visibility: 'private' })).status).toBe(201);
  });

  it('admins see every member bot with who made it, and retire one (and undo it)', async () => {
    const list = (await admin(server, owner, '/bot')).body as Json[];
    const theirs = list.find((bot) => bot._id === bots.organization);
    expect(theirs).toMatchObject({
      owner: { _id: alice.id, name: alice.displayName },
      visibility: 'organization',
      retired: false,
      models: [open],
    });
    expect(list.find((bot) => bot.name === 'Assistant')).toMatchObject({ retired: false });
    expect(list.find((bot) => bot.name === 'Assistant').owner).toBeUndefined();
    // Another organization's admins see none of them.
    const acme = (await admin(server, acmeOwner, '/bot')).body as Json[];
    expect(acme.some((bot) => bot.owner)).toBe(false);
    expect(
      (
        await admin(server, acmeOwner, `/bot/${bots.organization}`, {
          method: 'PATCH',
          body: { retired: true },
        })
      ).status,
    ).toBe(404);

    const topic = (await startTopic(carol, bots.organization)).body._id;
    // A member's bot is its maker's: an admin only retires it.
    const edit = await admin(server, owner, `/bot/${bots.organization}`, {
      method: 'PATCH',
      body: { description: 'Taken over' },
    });
    expect(edit.status).toBe(400);
    const retired = await admin(server, owner, `/bot/${bots.organization}`, {
      method: 'PATCH',
      body: { retired: true },
    });
    expect(retired.status, JSON.stringify(retired.body)).toBe(200);
    expect(retired.body.retired).toBe(true);
    // Nobody new, and the conversations it had say so.
    const refused = await as(carol, `/api/v1/topic/${topic}/message`, { body: { text: 'Hello?' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'BOT_RETIRED', error: expect.stringContaining('retired') });
    expect((await startTopic(alice, bots.organization)).body.code).toBe('BOT_RETIRED');
    expect((await listed(carol)).find((bot) => bot._id === bots.organization)?.active).toBe(false);
    expect(
      (await as(alice, '/api/v1/user/me/bot')).body.find((bot: Json) => bot._id === bots.organization)
        .retired,
    ).toBe(true);
    const log = (await admin(server, owner, '/audit')).body.items as Json[];
    expect(log[0]).toMatchObject({
      action: 'bot.retire',
      target: bots.organization,
      after: { retired: true },
    });
    // Undone: it answers again.
    await admin(server, owner, `/bot/${bots.organization}`, { method: 'PATCH', body: { retired: false } });
    const events = await say(server, carol, topic, 'Back again?');
    expect(events.at(-1)?.event).toBe('done');
    // An admin bot has no such switch.
    const assistant = list.find((bot) => bot.name === 'Assistant')._id;
    expect(
      (await admin(server, owner, `/bot/${assistant}`, { method: 'PATCH', body: { retired: true } })).status,
    ).toBe(400);
  });
});
