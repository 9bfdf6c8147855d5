import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../support/openai-double';
import { type Actor, admin, loginOwner, stream } from './admin/support';
import { download, upload } from './files/support';
import { ask, createBase, filler, makePages, settled, uploadDocument } from './knowledge/support';

type User = Awaited<ReturnType<typeof signUp>>;

describe('projects: own and shared through groups, in the reply context, with pin and archive', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let owner: Actor;
  let bots: Record<string, string>;
  let group: string;
  let alice: User;
  let bob: User;
  let carol: User;
  let stranger: User;
  let handbook: string;

  const as = (user: { token: string; tenant: string }, path: string, options: Json = {}) =>
    call(server, path, { token: user.token, tenant: user.tenant, ...options });
  const create = (user: User, body: Json) =>
    as(user, '/api/v1/project', { body: { ...body, name: user.encrypt(body.name) } });
  const newTopic = async (user: User, bot: string, project?: string) =>
    as(user, '/api/v1/topic', { body: { bot: bots[bot], ...(project ? { project } : {}) } });
  const balance = async (user: User) =>
    Number((await as(user, `/payment/billing-info/${user.id}`)).body.balance);
  const setMembers = (members: string[]) =>
    admin(server, owner, `/group/${group}/members`, { method: 'PUT', body: { members } });

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url });
    owner = await loginOwner(server, 'app');
    bots = Object.fromEntries(
      (await admin(server, owner, '/bot')).body.map((bot: { name: string; _id: string }) => [
        bot.name,
        bot._id,
      ]),
    );
    // A budget of one Assistant reply a month: the shared project's replies count against it.
    group = (
      await admin(server, owner, '/group', {
        body: { name: owner.encrypt('Project readers'), monthlyBudget: 0.05 },
      })
    ).body._id;
    [alice, bob, carol, stranger] = await Promise.all([
      signUp(server),
      signUp(server),
      signUp(server),
      signUp(server, 'acme'),
    ]);
    const pdf = await makePages([
      `Welcome to the team handbook. ${filler(200, 1)}`,
      `Holidays: every employee has twenty-eight days of paid leave a year. ${filler(200, 2)}`,
    ]);
    handbook = (await upload(server, alice, pdf, 'handbook.pdf', 'application/pdf')).body._id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('creates and reads a project with what the member may pick, and refuses what they may not', async () => {
    const choices = (await as(alice, '/api/v1/project/choices')).body;
    expect(choices.groups).toContainEqual({ _id: group, name: 'Project readers' });
    // The Librarian searches the Parley guide: a base for everyone who may use it.
    const guide = choices.knowledgeBases.find((base: Json) => base.name === 'Parley guide');
    expect(guide).toBeDefined();
    const made = await create(alice, {
      name: '  Onboarding  ',
      instructions: 'Answer in French.',
      bot: bots.Assistant,
      files: [handbook, handbook],
      knowledgeBases: [guide._id],
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      _id: expect.any(String),
      name: 'Onboarding',
      instructions: 'Answer in French.',
      bot: bots.Assistant,
      files: [{ _id: handbook, name: 'handbook.pdf', type: 'application/pdf', size: expect.any(Number) }],
      knowledgeBases: [guide._id],
      groups: [],
      owner: { _id: alice.id, name: alice.displayName },
      shared: false,
    });
    expect((await as(alice, `/api/v1/project/${made.body._id}`)).body).toEqual(made.body);
    expect((await as(alice, '/api/v1/project')).body).toContainEqual(made.body);
    // A change replaces what it names, and only that.
    const changed = await as(alice, `/api/v1/project/${made.body._id}`, {
      method: 'PATCH',
      body: { name: alice.encrypt('Onboarding 2'), bot: null, files: [] },
    });
    expect(changed.body).toEqual({ ...made.body, name: 'Onboarding 2', bot: null, files: [] });
    expect((await as(alice, `/api/v1/project/${made.body._id}`, { method: 'PATCH', body: {} })).status).toBe(
      400,
    );

    const refused = async (body: Json) => {
      const answer = await create(alice, { name: 'Refused', ...body });
      return [answer.status, answer.body.field];
    };
    const others = await upload(server, carol, Buffer.from('not yours'), 'carol.txt', 'text/plain');
    const acmeGroup = await admin(server, await loginOwner(server, 'acme'), '/group', {
      body: { name: owner.encrypt('Acme only') },
    });
    const unbound = (
      await admin(server, owner, '/knowledge', { body: { name: owner.encrypt('Bound to no bot') } })
    ).body._id;
    expect(await refused({ files: [others.body._id] })).toEqual([404, 'files']);
    expect(await refused({ groups: [acmeGroup.body._id] })).toEqual([404, 'groups']);
    expect(await refused({ knowledgeBases: [unbound] })).toEqual([404, 'knowledgeBases']);
    expect(await refused({ bot: 'no-such-bot' })).toEqual([404, 'bot']);
    expect(await refused({ name: '   ' })).toEqual([400, 'name']);
    expect(await refused({ instructions: 'x'.repeat(8001) })).toEqual([400, 'instructions']);
    // A name in clear text is refused like any unreadable sensitive field.
    const clear = await as(alice, '/api/v1/project', { body: { name: 'In clear' } });
    expect(clear.status).toBe(400);
    expect((await as(alice, '/api/v1/project')).body.map((project: Json) => project.name)).toEqual([
      'Onboarding 2',
    ]);
  });

  it("gives a model bot the project's instructions after its prompt and cites the project's file, page and name", async () => {
    const project = (
      await create(alice, {
        name: 'Handbook',
        instructions: 'Always answer like a pirate.',
        files: [handbook],
      })
    ).body;
    const topic = await newTopic(alice, 'Assistant', project._id);
    expect(topic.status).toBe(201);
    expect(topic.body).toMatchObject({ project: project._id, pinned: false, archived: false });
    const reply = await ask(server, alice, topic.body._id, { text: 'How many days of paid leave a year?' });
    expect(reply.done).not.toBeNull();
    const sent = model.requests.at(-1)?.messages ?? [];
    expect(sent[0].role).toBe('system');
    expect(textOf(sent[0].content)).toMatch(
      /^You are Parley Assistant[\s\S]*\n\nThis conversation belongs to the project "Handbook"\. Its instructions:\n\nAlways answer like a pirate\.$/,
    );
    expect(sent.filter((message) => message.role === 'system')).toHaveLength(1);
    expect(textOf(sent.at(-1)?.content)).toMatch(
      /<passage n="1" file="handbook.pdf" page="2">\nHolidays: every employee has twenty-eight days/,
    );
    expect(reply.done.citations[0]).toEqual({
      n: 1,
      fileId: handbook,
      name: 'handbook.pdf',
      page: 2,
      snippet: expect.stringContaining('twenty-eight days'),
    });

    // Regenerated (as continued) through the same path: the same context.
    const requests = model.requests.length;
    const again = await stream(
      server,
      `/api/v1/topic/${topic.body._id}/message/${reply.done.botMessageId}/regenerate`,
      alice.token,
      'app',
      {},
    );
    expect(again.events.at(-1)?.event).toBe('done');
    expect(model.requests).toHaveLength(requests + 1);
    expect(textOf(model.requests.at(-1)?.messages[0].content)).toContain('Always answer like a pirate.');

    // Out of the project: no instructions, no passages.
    await as(alice, `/api/v1/topic/${topic.body._id}`, { method: 'PATCH', body: { project: null } });
    await ask(server, alice, topic.body._id, { text: 'How many days of paid leave a year?' });
    const after = model.requests.at(-1)?.messages ?? [];
    expect(textOf(after[0].content)).not.toContain('pirate');
    expect(textOf(after.at(-1)?.content)).not.toContain('<passage');

    // The Librarian answers from the project's file with no model at all.
    const asked = model.requests.length;
    const librarian = await newTopic(alice, 'Librarian', project._id);
    const found = await ask(server, alice, librarian.body._id, { text: 'How many days of paid leave?' });
    expect(found.text).toContain('> Holidays: every employee has twenty-eight days of paid leave a year.');
    expect(found.text).toContain('[1] *handbook.pdf*, page 2');
    expect(model.requests.length).toBe(asked);
  });

  it("indexes a project's file once however many projects hold it, finds it by meaning, and drops it with the last", async () => {
    const text = new TextEncoder().encode('All about them: twin sons Leo and Max.');
    const notes = (await upload(server, alice, text, 'family.txt', 'text/plain')).body._id;
    const [first, second] = await Promise.all(
      ['Family', 'Family too'].map(async (name) => (await create(alice, { name, files: [notes] })).body._id),
    );
    const indexed = async () =>
      (
        await server.app.db.query<{ status: string; passages: number }>(
          `select d.status, (select count(*)::int from knowledge_passages p where p.file_id = d.file_id) as passages
           from knowledge_documents d where d.file_id = $1`,
          [notes],
        )
      ).rows;
    await expect.poll(indexed, { timeout: 15_000 }).toEqual([{ status: 'ready', passages: 1 }]);

    // Every word of the question is too common for full-text search: its vector finds the passage.
    const topic = (await newTopic(alice, 'Assistant', first)).body._id;
    const reply = await ask(server, alice, topic, { text: 'What about them?' });
    expect(textOf(model.requests.at(-1)?.messages.at(-1)?.content)).toMatch(
      /<passage n="1" file="family\.txt">\nAll about them: twin sons Leo and Max/,
    );
    expect(reply.done.citations).toEqual([
      { n: 1, fileId: notes, name: 'family.txt', snippet: expect.stringContaining('twin sons') },
    ]);

    // Kept while a project holds it (changing a project's other lists does not index it again).
    await as(alice, `/api/v1/project/${first}`, { method: 'PATCH', body: { files: [] } });
    await as(alice, `/api/v1/project/${second}`, { method: 'PATCH', body: { files: [notes, handbook] } });
    expect(await indexed()).toEqual([{ status: 'ready', passages: 1 }]);
    await as(alice, `/api/v1/project/${second}?conversations=keep`, { method: 'DELETE' });
    expect(await indexed()).toEqual([]);
    // The member's file itself stays theirs.
    expect((await download(server, alice, notes)).status).toBe(200);
  });

  it('shares through a group: members read it and its files and talk in it on their own account, until they leave', async () => {
    const project = (
      await create(alice, { name: 'Team', instructions: 'Sign every answer with Team.', files: [handbook] })
    ).body;
    await as(alice, `/api/v1/project/${project._id}`, { method: 'PATCH', body: { groups: [group] } });
    // Bob is not in the group yet.
    expect((await as(bob, `/api/v1/project/${project._id}`)).status).toBe(404);
    expect((await download(server, bob, handbook)).status).toBe(404);

    await setMembers([bob.id]);
    const seen = (await as(bob, '/api/v1/project')).body;
    expect(seen).toEqual([
      { ...project, groups: [group], shared: true, owner: { _id: alice.id, name: alice.displayName } },
    ]);
    expect((await as(bob, `/api/v1/file/${handbook}`)).body.name).toBe('handbook.pdf');
    expect((await download(server, bob, handbook)).status).toBe(200);
    // Only downloading: a project's file is not the reader's to attach, change or delete.
    expect((await as(bob, `/api/v1/file/${handbook}`, { method: 'DELETE' })).status).toBe(404);
    expect((await download(server, carol, handbook)).status).toBe(404);

    // Bob's own conversation in it: the project's context, billed to bob (and his group's budget).
    const before = { alice: await balance(alice), bob: await balance(bob) };
    const topic = (await newTopic(bob, 'Assistant', project._id)).body;
    const reply = await ask(server, bob, topic._id, { text: 'How many days of paid leave a year?' });
    expect(reply.done.cost).toBe(0.05);
    expect(textOf(model.requests.at(-1)?.messages[0].content)).toContain('Sign every answer with Team.');
    expect(reply.done.citations[0]).toMatchObject({ fileId: handbook, page: 2 });
    expect(await balance(bob)).toBeCloseTo(before.bob - 0.05);
    expect(await balance(alice)).toBe(before.alice);
    const again = await ask(server, bob, topic._id, { text: 'And sick days?' });
    expect(again.error?.code ?? again.done).toBe('BUDGET_REACHED');
    // His conversations are his: the owner does not see them.
    expect((await as(bob, `/api/v1/topic?project=${project._id}`)).body.map((t: Json) => t._id)).toEqual([
      topic._id,
    ]);
    expect((await as(alice, `/api/v1/topic?project=${project._id}`)).body).toEqual([]);
    expect((await as(alice, `/api/v1/topic/${topic._id}`)).status).toBe(404);

    // Only the owner changes or deletes it.
    const change = await as(bob, `/api/v1/project/${project._id}`, {
      method: 'PATCH',
      body: { instructions: 'Taken over' },
    });
    expect(change).toMatchObject({ status: 403, body: { code: 'NOT_OWNER' } });
    const removal = await as(bob, `/api/v1/project/${project._id}?conversations=keep`, { method: 'DELETE' });
    expect(removal.status).toBe(403);

    // Out of the group: gone at once, with its files; his conversation stays his, out of any project.
    await setMembers([]);
    expect((await as(bob, `/api/v1/project/${project._id}`)).status).toBe(404);
    expect((await as(bob, '/api/v1/project')).body).toEqual([]);
    expect((await as(bob, `/api/v1/topic?project=${project._id}`)).status).toBe(404);
    expect((await download(server, bob, handbook)).status).toBe(404);
    expect((await newTopic(bob, 'Assistant', project._id)).status).toBe(404);
    const kept = (await as(bob, `/api/v1/topic/${topic._id}`)).body;
    expect(kept).toMatchObject({ project: null, messages: expect.any(Array) });
    // Out of the group's budget too; a reply in it now gets nothing of the project.
    const outside = await ask(server, bob, topic._id, { text: 'How many days of paid leave a year?' });
    expect(outside.done).not.toBeNull();
    expect(textOf(model.requests.at(-1)?.messages[0].content)).not.toContain('Sign every answer');
    expect(outside.done).not.toHaveProperty('citations');
    expect((await as(alice, `/api/v1/project/${project._id}`)).body.instructions).toBe(
      'Sign every answer with Team.',
    );
  });

  it('gives each reader only the knowledge bases they may use: a base of a bot for other groups stays out', async () => {
    const researchers = (
      await admin(server, owner, '/group', { body: { name: owner.encrypt('Researchers') } })
    ).body._id;
    await admin(server, owner, `/group/${researchers}/members`, {
      method: 'PUT',
      body: { members: [alice.id] },
    });
    const base = await createBase(server, owner, 'Lab notes');
    await uploadDocument(server, owner, base._id, Buffer.from('The lab door code is 4471.'), 'lab.txt');
    expect((await settled(server, owner, base._id)).documents[0].status).toBe('ready');
    const labBot = await admin(server, owner, '/bot', {
      body: {
        name: owner.encrypt('Lab helper'),
        description: 'For researchers.',
        platform: 'builtin',
        engine: 'librarian',
        price: 0,
        categories: [],
        groups: [researchers],
        knowledge: [base._id],
        active: true,
      },
    });
    expect(labBot.status).toBe(201);
    const names = async (user: User) =>
      (await as(user, '/api/v1/project/choices')).body.knowledgeBases.map((one: Json) => one.name);
    expect(await names(alice)).toContain('Lab notes');
    // A member of the project's group, not of the researchers (and with the group's budget unspent).
    const reader = await signUp(server);
    expect(await names(reader)).not.toContain('Lab notes');
    expect((await create(reader, { name: 'Sneaky', knowledgeBases: [base._id] })).body.field).toBe(
      'knowledgeBases',
    );

    const project = (await create(alice, { name: 'Lab', knowledgeBases: [base._id], groups: [group] })).body
      ._id;
    await setMembers([reader.id]);
    const question = { text: 'What is the lab door code?' };
    const hers = await ask(server, alice, (await newTopic(alice, 'Librarian', project)).body._id, question);
    expect(hers.text).toContain('The lab door code is 4471.');
    const his = await ask(server, reader, (await newTopic(reader, 'Librarian', project)).body._id, question);
    expect(his.done).not.toBeNull();
    expect(his.text).not.toContain('4471');
    await setMembers([]);
  });

  it('pins lead the list and its pages, archived ones leave it but are found by a search and come back', async () => {
    const user = await signUp(server);
    const ids: string[] = [];
    for (const title of ['Alpha plans', 'Bravo plans', 'Charlie plans']) {
      const topic = (await newTopic(user, 'ELIZA')).body._id;
      await as(user, `/api/v1/topic/${topic}`, { method: 'PATCH', body: { title } });
      ids.push(topic);
      // Each a moment later than the one before: the list's order is theirs.
      await server.app.db.query(
        'update topics set updated_at = now() + make_interval(secs => $2) where id = $1',
        [topic, ids.length],
      );
    }
    const [alpha, bravo, charlie] = ids;
    const list = async (query = '') =>
      (await as(user, `/api/v1/topic${query}`)).body.map((topic: Json) => topic._id);
    const pages = async () => {
      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; page < 5; page += 1) {
        const answer = (await as(user, `/api/v1/topic?limit=1&cursor=${cursor}`)).body;
        seen.push(...answer.items.map((topic: Json) => topic._id));
        if (!answer.next) return seen;
        cursor = answer.next;
      }
      return seen;
    };
    expect(await list()).toEqual([charlie, bravo, alpha]);

    const pinned = await as(user, `/api/v1/topic/${alpha}`, { method: 'PATCH', body: { pinned: true } });
    expect(pinned.body).toMatchObject({ _id: alpha, pinned: true, archived: false, project: null });
    expect(await list()).toEqual([alpha, charlie, bravo]);
    expect(await pages()).toEqual([alpha, charlie, bravo]);

    await as(user, `/api/v1/topic/${charlie}`, { method: 'PATCH', body: { archived: true } });
    expect(await list()).toEqual([alpha, bravo]);
    expect(await pages()).toEqual([alpha, bravo]);
    expect(await list('?archived=true')).toEqual([charlie]);
    const search = (await as(user, '/api/v1/topic?q=charlie')).body.items;
    expect(search).toMatchObject([{ _id: charlie, archived: true }]);
    expect(
      (await as(user, '/api/v1/topic?q=plans&archived=true')).body.items.map((t: Json) => t._id),
    ).toEqual([charlie]);
    await as(user, `/api/v1/topic/${charlie}`, { method: 'PATCH', body: { archived: false } });
    expect(await list()).toEqual([alpha, charlie, bravo]);

    // Into a project and out again; a bad title changes nothing.
    const project = (await create(user, { name: 'Plans' })).body;
    const bad = await as(user, `/api/v1/topic/${bravo}`, {
      method: 'PATCH',
      body: { project: project._id, title: '   ' },
    });
    expect(bad.status).toBe(400);
    expect(await list(`?project=${project._id}`)).toEqual([]);
    await as(user, `/api/v1/topic/${bravo}`, { method: 'PATCH', body: { project: project._id } });
    expect(await list(`?project=${project._id}`)).toEqual([bravo]);
    expect((await as(user, `/api/v1/topic?project=${project._id}&cursor=`)).body.items).toHaveLength(1);
    expect((await as(user, `/api/v1/topic?project=${project._id}&q=plans`)).body.items).toHaveLength(1);
    await as(user, `/api/v1/topic/${bravo}`, { method: 'PATCH', body: { project: null } });
    expect(await list(`?project=${project._id}`)).toEqual([]);
    expect((await as(user, '/api/v1/topic?cursor=bm90LWEtY3Vyc29y')).status).toBe(400);
  });

  it('deletes a project with its owner’s conversations or moves them out; other members’ always move out', async () => {
    const guide = (await as(alice, '/api/v1/project/choices')).body.knowledgeBases[0]._id;
    const made = async () =>
      (await create(alice, { name: 'Short-lived', groups: [group], knowledgeBases: [guide] })).body._id;
    await setMembers([bob.id]);
    const first = await made();
    const mine = (await newTopic(alice, 'ELIZA', first)).body._id;
    // A message carrying the project's file: deleting the conversation leaves the file to the project.
    const second = await made();
    await as(alice, `/api/v1/project/${second}`, { method: 'PATCH', body: { files: [handbook] } });
    const carrying = (await newTopic(alice, 'ELIZA', first)).body._id;
    expect(
      (await ask(server, alice, carrying, { text: 'Read this', files: [handbook] })).done,
    ).not.toBeNull();
    const theirs = (await newTopic(bob, 'ELIZA', first)).body._id;

    const unasked = await as(alice, `/api/v1/project/${first}`, { method: 'DELETE' });
    expect(unasked).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', field: 'conversations' } });
    expect(unasked.body.error).toMatch(/conversations/);
    expect((await as(alice, `/api/v1/project/${first}`)).status).toBe(200);

    const deleted = await as(alice, `/api/v1/project/${first}?conversations=delete`, { method: 'DELETE' });
    expect(deleted.body).toEqual({ success: true });
    expect((await as(alice, `/api/v1/project/${first}`)).status).toBe(404);
    expect((await as(alice, `/api/v1/topic/${mine}`)).status).toBe(404);
    expect((await as(alice, `/api/v1/topic/${carrying}`)).status).toBe(404);
    expect((await as(alice, `/api/v1/file/${handbook}`)).status).toBe(200);
    expect((await as(bob, `/api/v1/topic/${theirs}`)).body.project).toBeNull();

    const third = await made();
    const kept = (await newTopic(alice, 'ELIZA', third)).body._id;
    const moved = await as(alice, `/api/v1/project/${third}?conversations=keep`, { method: 'DELETE' });
    expect(moved.status).toBe(200);
    expect((await as(alice, `/api/v1/topic/${kept}`)).body.project).toBeNull();
    await as(alice, `/api/v1/project/${second}?conversations=keep`, { method: 'DELETE' });
    await setMembers([]);
  });

  it('keeps every project route to its owner and readers: another member, another organization, a reader writing', async () => {
    const project = (await create(alice, { name: 'Guarded', files: [handbook], groups: [group] })).body;
    const topic = (await newTopic(alice, 'ELIZA', project._id)).body._id;
    await setMembers([bob.id]);
    const reading = [
      ['GET', `/api/v1/project/${project._id}`],
      ['GET', `/api/v1/topic?project=${project._id}`],
      ['GET', `/api/v1/file/${handbook}/content`],
      ['POST', '/api/v1/topic', { bot: bots.ELIZA, project: project._id }],
    ] as const;
    const writing = [
      ['PATCH', `/api/v1/project/${project._id}`, { instructions: 'Taken over' }],
      ['DELETE', `/api/v1/project/${project._id}?conversations=delete`],
      ['PATCH', `/api/v1/topic/${topic}`, { project: null }],
      ['PATCH', `/api/v1/topic/${topic}`, { pinned: true }],
      ['PATCH', `/api/v1/topic/${topic}`, { archived: true }],
    ] as const;
    let crossings = 0;
    const attempt = async (user: User, [method, path, body]: readonly [string, string, Json?]) => {
      const answer = await as(user, path, { method, body });
      if (answer.status < 300) crossings += 1;
      return answer.status;
    };
    for (const route of [...reading, ...writing]) {
      expect(await attempt(carol, route)).toBe(404);
      // Acme's member in acme (their own organization), and with acme's token in app.
      expect(await attempt(stranger, route)).toBe(404);
      expect(
        (await call(server, route[1], { method: route[0], token: stranger.token, body: route[2] })).status,
      ).toBe(401);
    }
    for (const route of writing) expect([403, 404]).toContain(await attempt(bob, route));
    expect(crossings).toBe(0);
    // Other members and organizations list nothing of it.
    expect((await as(carol, '/api/v1/project')).body).toEqual([]);
    expect((await as(stranger, '/api/v1/project')).body).toEqual([]);
    const still = (await as(alice, `/api/v1/project/${project._id}`)).body;
    expect(still.instructions).toBe('');
    expect((await as(alice, `/api/v1/topic/${topic}`)).body).toMatchObject({
      project: project._id,
      pinned: false,
      archived: false,
    });
    await setMembers([]);
  });
});
