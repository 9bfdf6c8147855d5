import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncIdpGroups } from '../../../server/access/groups';
import { budgetResetDate } from '../../../server/billing/reservations';
import { interruptOrphans, release, startReply } from '../../../server/chat/replyStore';
import { call, type Json, signUp, startApp, type TestServer } from '../../support/app';
import { type RunningPostgres, startPostgres } from '../../support/postgres';
import { readEvents } from '../../support/sse';
import { type Actor, admin, loginOwner, member } from './support';

type User = Awaited<ReturnType<typeof signUp>>;

/** The first day of next month (UTC) as the refusal names it. */
const resetDate = budgetResetDate();

/** A member's message in a new topic of `botId`: the answer's status, and its events or its error. */
async function message(server: TestServer, user: User, topicId: string, text = 'Hello there') {
  const response = await fetch(`${server.url}/api/v1/topic/${topicId}/message`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.token}`,
      organization: user.tenant,
    },
    body: JSON.stringify({ text }),
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream'))
    return { status: response.status, body: await response.json(), events: [] };
  return { status: response.status, body: null, events: await readEvents(response) };
}

async function newTopic(server: TestServer, user: User, botId: string) {
  const answer = await call(server, '/api/v1/topic', {
    token: user.token,
    tenant: user.tenant,
    body: { bot: botId },
  });
  return answer;
}

async function billing(server: TestServer, user: User) {
  return (await call(server, `/payment/billing-info/${user.id}`, { token: user.token, tenant: user.tenant }))
    .body as { balance: number; reserved: number };
}

/** A built-in ELIZA bot of the owner's organization at `price`, limited to `groups`. */
async function makeBot(server: TestServer, owner: Actor, name: string, price: number, groups: string[] = []) {
  const answer = await admin(server, owner, '/bot', {
    body: {
      name: owner.encrypt(name),
      description: 'A bot for the groups tests.',
      platform: 'builtin',
      engine: 'eliza',
      price,
      categories: [],
      groups,
      active: true,
    },
  });
  expect(answer.status).toBe(201);
  return answer.body as { _id: string; groups: string[] };
}

/**
 * 100 messages at once, each in a topic of its own (one reply per topic), from a member whose group
 * budget allows exactly 3 replies of the bot's price: 3 are paid, 97 refused with BUDGET_REACHED.
 */
async function budgetRace(server: TestServer, owner: Actor, tag: string) {
  const user = await signUp(server, owner.tenant);
  const group = await admin(server, owner, '/group', {
    body: { name: owner.encrypt(`Budget ${tag}`), monthlyBudget: 3 },
  });
  expect(group.status).toBe(201);
  await admin(server, owner, `/group/${group.body._id}/members`, {
    method: 'PUT',
    body: { members: [user.id] },
  });
  const bot = await makeBot(server, owner, `Priced ${tag}`, 1);
  const topics = await Promise.all(
    Array.from({ length: 100 }, async () => (await newTopic(server, user, bot._id)).body._id as string),
  );
  const answers = await Promise.all(topics.map((topic) => message(server, user, topic, 'I feel happy')));
  const paid = answers.filter((answer) => answer.events.at(-1)?.event === 'done');
  const refused = answers.filter((answer) => answer.status === 402);
  expect(paid).toHaveLength(3);
  expect(refused).toHaveLength(97);
  for (const answer of refused) {
    expect(answer.body).toEqual({
      error: `You have reached your monthly budget. Replies start again on ${resetDate}.`,
      code: 'BUDGET_REACHED',
    });
  }
  for (const answer of paid) expect(answer.events.at(-1)?.data).toMatchObject({ cost: 1 });
  expect(await billing(server, user)).toMatchObject({ balance: 7, reserved: 0 });
  const { rows } = await server.app.db.query<{ charges: string }>(
    `select count(*) as charges from transactions where user_id = $1 and amount < 0`,
    [user.id],
  );
  expect(Number(rows[0].charges)).toBe(3);
  return { user, bot, group: group.body };
}

describe('admin area: groups, the bots they may use and their monthly budgets', () => {
  let server: TestServer;
  let owner: Actor;
  let elsewhere: Actor;

  beforeAll(async () => {
    server = await startApp();
    owner = await loginOwner(server, 'acme');
    elsewhere = await loginOwner(server, 'app');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  let groupId = '';

  it('creates, lists, changes and deletes groups, each write in the audit log', async () => {
    const created = await admin(server, owner, '/group', {
      body: {
        name: owner.encrypt('  Research   team '),
        monthlyBudget: 12.5,
        idpGroups: [' research ', 'lab', 'lab'],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.any(String),
      name: 'Research team',
      monthlyBudget: 12.5,
      idpGroups: ['research', 'lab'],
      members: [],
      bots: [],
    });
    groupId = created.body._id;
    const plain = await admin(server, owner, '/group', { body: { name: owner.encrypt('Everyone else') } });
    expect(plain.body).toMatchObject({ name: 'Everyone else', monthlyBudget: null, idpGroups: [] });

    const list = await admin(server, owner, '/group');
    expect(list.status).toBe(200);
    expect(list.body.map((group: Json) => group.name)).toEqual(['Everyone else', 'Research team']);

    const changed = await admin(server, owner, `/group/${groupId}`, {
      method: 'PATCH',
      body: { monthlyBudget: null, idpGroups: ['research'] },
    });
    expect(changed.body).toMatchObject({
      name: 'Research team',
      monthlyBudget: null,
      idpGroups: ['research'],
    });
    const renamed = await admin(server, owner, `/group/${groupId}`, {
      method: 'PATCH',
      body: { name: owner.encrypt('Researchers'), monthlyBudget: 20 },
    });
    expect(renamed.body).toMatchObject({ name: 'Researchers', monthlyBudget: 20, idpGroups: ['research'] });

    const removed = await admin(server, owner, `/group/${plain.body._id}`, { method: 'DELETE' });
    expect(removed.body).toEqual({ success: true });
    expect((await admin(server, owner, `/group/${plain.body._id}`, { method: 'DELETE' })).status).toBe(404);

    const audit = (await admin(server, owner, '/audit?limit=100')).body.items as Json[];
    const mine = audit.filter((entry) => [groupId, plain.body._id].includes(entry.target));
    expect(mine.map((entry) => entry.action).sort()).toEqual([
      'group.create',
      'group.create',
      'group.delete',
      'group.update',
      'group.update',
    ]);
    const rename = mine.find(
      (entry) => entry.action === 'group.update' && entry.after.name === 'Researchers',
    );
    expect(rename).toMatchObject({
      before: { name: 'Research team', monthlyBudget: null },
      after: { name: 'Researchers', monthlyBudget: 20 },
    });
  });

  it('validates with a clear 4xx message naming the field', async () => {
    const clear = await admin(server, owner, '/group', { body: { name: 'Not encrypted' } });
    expect(clear.status).toBe(400);
    expect((await admin(server, owner, '/group', { body: {} })).body).toEqual({
      error: 'Please fill in name.',
      code: 'INVALID_INPUT',
      field: 'name',
    });
    expect(
      (await admin(server, owner, '/group', { body: { name: owner.encrypt('   ') } })).body,
    ).toMatchObject({
      error: 'Please fill in name.',
      field: 'name',
    });
    expect(
      await admin(server, owner, '/group', { body: { name: owner.encrypt('Negative'), monthlyBudget: -1 } }),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', field: 'monthlyBudget' } });
    expect(
      await admin(server, owner, '/group', { body: { name: owner.encrypt('Words'), monthlyBudget: 'ten' } }),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', field: 'monthlyBudget' } });
    expect(
      await admin(server, owner, '/group', { body: { name: owner.encrypt('Extra'), colour: 'red' } }),
    ).toMatchObject({ status: 400, body: { error: 'Unknown field: colour.' } });
    expect(
      await admin(server, owner, '/group', { body: { name: owner.encrypt('researchers') } }),
    ).toMatchObject({
      status: 409,
      body: { error: 'A group with this name exists already.', code: 'NAME_TAKEN', field: 'name' },
    });
    expect(await admin(server, owner, `/group/${groupId}`, { method: 'PATCH', body: {} })).toMatchObject({
      status: 400,
    });
    expect(
      await admin(server, owner, `/group/${groupId}/members`, { method: 'PUT', body: { members: 'all' } }),
    ).toMatchObject({ status: 400, body: { field: 'members' } });
  });

  it('sets the members: only members of the organization', async () => {
    const first = await signUp(server, 'acme');
    const second = await signUp(server, 'acme');
    const set = await admin(server, owner, `/group/${groupId}/members`, {
      method: 'PUT',
      body: { members: [first.id, second.id, first.id] },
    });
    // PUT answers 'OK', as the web app's HTTP helper expects of a PUT (seed-spec §7).
    expect(set).toMatchObject({ status: 200, body: 'OK' });
    const membersOf = async () =>
      (await admin(server, owner, '/group')).body.find((group: Json) => group._id === groupId)
        .members as Json[];
    expect((await membersOf()).map((one: Json) => one._id).sort()).toEqual([first.id, second.id].sort());
    expect(await membersOf()).toContainEqual({
      _id: first.id,
      displayName: first.displayName,
      username: first.username,
    });
    const fewer = await admin(server, owner, `/group/${groupId}/members`, {
      method: 'PUT',
      body: { members: [second.id] },
    });
    expect(fewer.body).toBe('OK');
    expect((await membersOf()).map((one: Json) => one._id)).toEqual([second.id]);

    const stranger = await signUp(server, 'app');
    const crossing = await admin(server, owner, `/group/${groupId}/members`, {
      method: 'PUT',
      body: { members: [second.id, stranger.id] },
    });
    expect(crossing).toMatchObject({ status: 404, body: { error: 'Member not found', field: 'members' } });
    expect(
      (await admin(server, owner, '/group')).body.find((group: Json) => group._id === groupId).members,
    ).toEqual([expect.objectContaining({ _id: second.id })]);
    const audit = (await admin(server, owner, '/audit?limit=100')).body.items as Json[];
    const change = audit.find((entry) => entry.action === 'group.members' && entry.target === groupId);
    expect(change).toMatchObject({
      before: { members: expect.any(Array) },
      after: { members: [second.id] },
    });
    // The log reads without ids: the group and each member it names, by name.
    expect(change?.names).toEqual({
      [groupId]: 'Researchers',
      [first.id]: first.displayName,
      [second.id]: second.displayName,
    });
  });

  it('answers 401 anonymous, 403 to a member and 404 for a group of another organization', async () => {
    const someone = await member(server, 'acme');
    const paths: [string, string, Json?][] = [
      ['GET', '/group'],
      ['POST', '/group', { name: someone.encrypt('Mine') }],
      ['PATCH', `/group/${groupId}`, { monthlyBudget: 1 }],
      ['DELETE', `/group/${groupId}`],
      ['PUT', `/group/${groupId}/members`, { members: [someone.id] }],
    ];
    for (const [method, path, body] of paths) {
      const anonymous = await call(server, `/api/v1/admin${path}`, { method, body, tenant: 'acme' });
      expect(anonymous.status).toBe(401);
      const asMember = await admin(server, someone, path, { method, body });
      expect(asMember).toMatchObject({
        status: 403,
        body: { error: 'Only an administrator of this organization can do this.', code: 'FORBIDDEN' },
      });
    }
    // The owner of `app` with an `acme` group's id: not found, and nothing changed.
    for (const [method, path, body] of paths.slice(2)) {
      const crossing = await admin(server, elsewhere, path, {
        method,
        body: body && 'members' in body ? { members: [] } : body,
      });
      expect(crossing).toMatchObject({ status: 404, body: { error: 'Group not found' } });
    }
    expect((await admin(server, elsewhere, '/group')).body.map((group: Json) => group._id)).not.toContain(
      groupId,
    );
    const still = (await admin(server, owner, '/group')).body.find((group: Json) => group._id === groupId);
    expect(still).toMatchObject({
      monthlyBudget: 20,
      members: [expect.objectContaining({ _id: expect.any(String) })],
    });
    // A bot limited to another organization's group: not found.
    const theirs = await admin(server, elsewhere, '/group', { body: { name: elsewhere.encrypt('Theirs') } });
    const bot = await admin(server, owner, '/bot', {
      body: {
        name: owner.encrypt('Crossing'),
        description: '',
        platform: 'builtin',
        engine: 'eliza',
        price: 0,
        categories: [],
        groups: [theirs.body._id],
        active: true,
      },
    });
    expect(bot).toMatchObject({ status: 404, body: { error: 'Group not found', field: 'groups' } });
  });

  it('a bot limited to a group: hidden from others, 403 before anything is reserved, Try it still works', async () => {
    const insider = await signUp(server, 'acme');
    const outsider = await signUp(server, 'acme');
    const group = await admin(server, owner, '/group', { body: { name: owner.encrypt('Insiders') } });
    await admin(server, owner, `/group/${group.body._id}/members`, {
      method: 'PUT',
      body: { members: [insider.id] },
    });
    const open = await makeBot(server, owner, 'Open to all', 0.5);
    // Both read the catalogue first: the limit must take effect although it is kept per organization.
    await call(server, '/api/v1/bot', { token: outsider.token, tenant: 'acme' });
    const limited = await makeBot(server, owner, 'Insiders only', 0.5, [group.body._id]);
    expect(limited.groups).toEqual([group.body._id]);
    expect(
      (await admin(server, owner, `/bot`)).body.find((bot: Json) => bot._id === limited._id).groups,
    ).toEqual([group.body._id]);

    const seen = async (user: User) =>
      (await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' })).body.map(
        (bot: Json) => bot._id,
      );
    expect(await seen(insider)).toEqual(expect.arrayContaining([open._id, limited._id]));
    expect(await seen(outsider)).toContain(open._id);
    expect(await seen(outsider)).not.toContain(limited._id);
    const listed = (await call(server, '/api/v1/bot', { token: insider.token, tenant: 'acme' })).body;
    expect(listed.find((bot: Json) => bot._id === limited._id)).not.toHaveProperty('groups');

    // The insider chats; the outsider cannot start a conversation with it.
    const insiderTopic = await newTopic(server, insider, limited._id);
    expect(insiderTopic.status).toBe(201);
    const answered = await message(server, insider, insiderTopic.body._id);
    expect(answered.events.at(-1)).toMatchObject({ event: 'done', data: { cost: 0.5 } });
    const refusedTopic = await newTopic(server, outsider, limited._id);
    expect(refusedTopic).toMatchObject({ status: 403, body: { code: 'BOT_NOT_ALLOWED' } });

    // Removed from the group, the insider's existing conversation is refused, and nothing is held.
    await admin(server, owner, `/group/${group.body._id}/members`, { method: 'PUT', body: { members: [] } });
    const before = await billing(server, insider);
    const refused = await message(server, insider, insiderTopic.body._id, 'One more');
    expect(refused).toMatchObject({
      status: 403,
      body: {
        error:
          'Insiders only is only for some groups of this organization, and you are in none of them. Ask an administrator if you need it.',
        code: 'BOT_NOT_ALLOWED',
      },
    });
    expect(await billing(server, insider)).toEqual(before);
    expect(before.reserved).toBe(0);
    const { rows } = await server.app.db.query<{ count: string }>(
      'select count(*) from messages where topic_id = $1',
      [insiderTopic.body._id],
    );
    expect(Number(rows[0].count)).toBe(2);
    const regenerate = await fetch(
      `${server.url}/api/v1/topic/${insiderTopic.body._id}/message/${answered.events[0].data.botMessageId}/regenerate`,
      { method: 'POST', headers: { authorization: `Bearer ${insider.token}`, organization: 'acme' } },
    );
    expect(regenerate.status).toBe(403);

    // The owner is in no group, and tries the bot in the editor all the same.
    const tried = await fetch(`${server.url}/api/v1/admin/bot/${limited._id}/try`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${owner.token}`,
        organization: 'acme',
      },
      body: JSON.stringify({ messages: [{ role: 'user', text: 'I am sad' }] }),
    });
    expect(tried.status).toBe(200);
    expect((await readEvents(tried)).at(-1)).toMatchObject({ event: 'done', data: { cost: 0 } });

    // A group some bot is limited to alone cannot be deleted; once the bot is open again it can.
    const inUse = await admin(server, owner, `/group/${group.body._id}`, { method: 'DELETE' });
    expect(inUse).toMatchObject({ status: 409, body: { code: 'GROUP_IN_USE' } });
    expect(inUse.body.error).toContain('Insiders only');
    const reopened = await admin(server, owner, `/bot/${limited._id}`, {
      method: 'PATCH',
      body: { groups: [] },
    });
    expect(reopened.body.groups).toEqual([]);
    expect(await seen(outsider)).toContain(limited._id);
    expect((await admin(server, owner, `/group/${group.body._id}`, { method: 'DELETE' })).status).toBe(200);
    const audit = (await admin(server, owner, '/audit?limit=100')).body.items as Json[];
    expect(
      audit.find((entry) => entry.action === 'bot.update' && entry.target === limited._id),
    ).toMatchObject({
      before: { groups: [group.body._id] },
      after: { groups: [] },
      // The group is deleted since: its name is the one the log last recorded.
      names: { [limited._id]: 'Insiders only', [group.body._id]: 'Insiders' },
    });
  });

  it('100 simultaneous messages at a budget that allows 3 replies: exactly 3 paid, 97 refused with the reset date', async () => {
    const { user, bot } = await budgetRace(server, owner, 'pglite');
    // Spend is counted per calendar month (UTC): last month's does not count.
    await server.app.db.query(
      `update users set spent_month = (date_trunc('month', now() at time zone 'utc') - interval '1 month')::date
       where id = $1`,
      [user.id],
    );
    const topic = await newTopic(server, user, bot._id);
    expect((await message(server, user, topic.body._id)).events.at(-1)?.event).toBe('done');
  }, 60_000);

  it('the smallest budget of a member’s groups counts, a change counts at once, and a free bot stops at the budget too', async () => {
    const user = await signUp(server, 'acme');
    const roomy = await admin(server, owner, '/group', {
      body: { name: owner.encrypt('Roomy'), monthlyBudget: 100 },
    });
    const tight = await admin(server, owner, '/group', {
      body: { name: owner.encrypt('Tight'), monthlyBudget: 1 },
    });
    for (const group of [roomy, tight])
      await admin(server, owner, `/group/${group.body._id}/members`, {
        method: 'PUT',
        body: { members: [user.id] },
      });
    const priced = await makeBot(server, owner, 'Costs 0.6', 0.6);
    const free = await makeBot(server, owner, 'Costs nothing', 0);
    const topic = async (botId: string) => (await newTopic(server, user, botId)).body._id as string;
    expect((await message(server, user, await topic(priced._id))).events.at(-1)?.event).toBe('done');
    // 0.6 spent of 1: another 0.6 would overrun it.
    expect(await message(server, user, await topic(priced._id))).toMatchObject({
      status: 402,
      body: { code: 'BUDGET_REACHED' },
    });
    // Under the budget, a free bot answers; at the budget it does not either.
    expect((await message(server, user, await topic(free._id))).events.at(-1)?.event).toBe('done');
    await admin(server, owner, `/group/${tight.body._id}`, { method: 'PATCH', body: { monthlyBudget: 0.6 } });
    expect(await message(server, user, await topic(free._id))).toMatchObject({
      status: 402,
      body: { code: 'BUDGET_REACHED' },
    });
    // Raised, it counts at once; the balance still has its own say.
    await admin(server, owner, `/group/${tight.body._id}`, {
      method: 'PATCH',
      body: { monthlyBudget: null },
    });
    expect((await message(server, user, await topic(priced._id))).events.at(-1)?.event).toBe('done');
    const { rows } = await server.app.db.query<{ month_spent: string }>(
      'select month_spent from users where id = $1',
      [user.id],
    );
    expect(Number(rows[0].month_spent)).toBeCloseTo(1.2);
  });

  it('a reply that fails, is stopped or is cut off gives its share of the month back', async () => {
    const user = await signUp(server, 'acme');
    const group = await admin(server, owner, '/group', {
      body: { name: owner.encrypt('One reply'), monthlyBudget: 1 },
    });
    await admin(server, owner, `/group/${group.body._id}/members`, {
      method: 'PUT',
      body: { members: [user.id] },
    });
    const bot = await makeBot(server, owner, 'Costs one', 1);
    const topicId = (await newTopic(server, user, bot._id)).body._id as string;
    const db = server.app.db;
    const who = { tenant: 'acme', userId: user.id };
    const spent = async () =>
      (
        await db.query<{ month_spent: string; reserved: string }>(
          'select month_spent, reserved from users where id = $1',
          [user.id],
        )
      ).rows[0];
    const start = () => startReply(db, who, { topicId, parent: null, text: 'Hello', price: 1 });

    // Held: it counts at once, and the next one is refused by the budget.
    const failed = await start();
    expect(await spent()).toEqual({
      month_spent: expect.stringMatching(/^1\.?0*$/),
      reserved: expect.stringMatching(/^1\.?0*$/),
    });
    await expect(start()).rejects.toMatchObject({ statusCode: 402, code: 'BUDGET_REACHED' });
    await release(db, who, { messageId: failed.botMessageId, text: null, status: 'failed' });
    expect(Number((await spent()).month_spent)).toBe(0);

    const stopped = await start();
    await release(db, who, { messageId: stopped.botMessageId, text: 'Half a re', status: 'stopped' });
    expect(Number((await spent()).month_spent)).toBe(0);

    // Cut off: its lease ran out, and the sweep that marks it interrupted gives it back.
    const cutOff = await start();
    await db.query(`update messages set lease_until = now() - interval '1 minute' where id = $1`, [
      cutOff.botMessageId,
    ]);
    expect(await interruptOrphans(db)).toBeGreaterThanOrEqual(1);
    expect(await spent()).toMatchObject({ reserved: expect.stringMatching(/^0\.?0*$/) });
    expect(Number((await spent()).month_spent)).toBe(0);

    // A reply that completes counts.
    expect((await message(server, user, topicId)).events.at(-1)?.event).toBe('done');
    expect(Number((await spent()).month_spent)).toBe(1);
  });

  it('the usage report shows spend per group', async () => {
    const usage = await admin(server, owner, '/usage?days=30');
    expect(usage.status).toBe(200);
    const race = usage.body.perGroup.find((group: Json) => group.name === 'Budget pglite');
    expect(race).toEqual({
      _id: expect.any(String),
      name: 'Budget pglite',
      monthlyBudget: 3,
      members: 1,
      messages: 4,
      replies: 4,
      spend: 4,
    });
    const researchers = usage.body.perGroup.find((group: Json) => group._id === groupId);
    expect(researchers).toMatchObject({ members: 1, spend: 0, messages: 0 });
    expect(JSON.stringify((await admin(server, elsewhere, '/usage')).body)).not.toContain(race._id);
    const csv = await admin(server, owner, '/usage?days=30&format=csv');
    expect(csv.body).toContain(`group,,${race._id},Budget pglite,4,4,4`);
  });

  it('syncIdpGroups sets a member’s groups from the identity provider’s group names', async () => {
    const user = await signUp(server, 'acme');
    const make = async (name: string, idpGroups: string[]) =>
      (await admin(server, owner, '/group', { body: { name: owner.encrypt(name), idpGroups } })).body
        ._id as string;
    const engineering = await make('Engineering', ['eng', 'platform']);
    const sales = await make('Sales', ['sales']);
    const handPicked = await make('Hand-picked', []);
    await admin(server, owner, `/group/${handPicked}/members`, {
      method: 'PUT',
      body: { members: [user.id] },
    });
    // A group of another organization with the same IdP name is never joined.
    const foreign = (
      await admin(server, elsewhere, '/group', {
        body: { name: elsewhere.encrypt('Eng elsewhere'), idpGroups: ['eng'] },
      })
    ).body._id as string;

    const db = server.app.db;
    const sorted = (ids: string[]) => [...ids].sort();
    expect(sorted(await syncIdpGroups(db, 'acme', user.id, ['platform', 'unknown']))).toEqual(
      sorted([engineering, handPicked]),
    );
    expect(sorted(await syncIdpGroups(db, 'acme', user.id, ['sales', 'eng']))).toEqual(
      sorted([engineering, sales, handPicked]),
    );
    // Left the IdP's groups: out of the mapped groups, still in the hand-picked one.
    expect(await syncIdpGroups(db, 'acme', user.id, [])).toEqual([handPicked]);
    expect(await syncIdpGroups(db, 'acme', user.id, [' sales '])).toEqual(expect.arrayContaining([sales]));
    expect(await syncIdpGroups(db, 'acme', user.id, ['eng'])).not.toContain(foreign);
    await expect(syncIdpGroups(db, 'app', user.id, ['eng'])).rejects.toMatchObject({ statusCode: 404 });
    const listed = (await admin(server, owner, '/group')).body.find(
      (group: Json) => group._id === engineering,
    );
    expect(listed.members).toEqual([
      { _id: user.id, displayName: user.displayName, username: user.username },
    ]);
  });
});

describe('groups on PostgreSQL: the budget holds with concurrent connections', () => {
  let postgres: RunningPostgres;
  let server: TestServer;

  beforeAll(async () => {
    postgres = await startPostgres();
    server = await startApp({ DATABASE_URL: postgres.url });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    postgres?.stop();
  });

  it('100 simultaneous messages at a budget that allows 3 replies: exactly 3 paid', async () => {
    await budgetRace(server, await loginOwner(server, 'acme'), 'postgres');
  }, 60_000);
});
