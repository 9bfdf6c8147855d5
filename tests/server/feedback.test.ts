import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, type Json, signUp, startApp, type TestServer } from '../support/app';
import { loginOwner } from './admin/support';
import { ask } from './knowledge/support';

type User = Awaited<ReturnType<typeof signUp>>;
interface Stored {
  _id: string;
  role: 'user' | 'bot';
  feedback?: { rating: 'up' | 'down'; reason: string } | null;
}

/**
 * Thumbs on a reply: set, changed and taken back by the member on their own conversation's replies only
 * (another member's or organization's is 404, with nothing changed), and the admins' figures per bot
 * and model with the newest reasons, which outlive the conversation and never say whose they are.
 */
describe('feedback on replies', () => {
  let server: TestServer;
  let bots: Record<string, string>;
  let alice: User;
  let bob: User;
  let carol: User;

  beforeAll(async () => {
    server = await startApp();
    bots = await botIds(server);
    [alice, bob, carol] = await Promise.all([signUp(server), signUp(server), signUp(server, 'acme')]);
  });
  afterAll(() => server.close());

  /** A conversation of `user` with `bot` and its messages after `questions`, each answered. */
  async function conversation(user: User, bot: string, questions = ['Hello there']) {
    const topic = (
      await call(server, '/api/v1/topic', { token: user.token, tenant: user.tenant, body: { bot } })
    ).body._id as string;
    for (const text of questions) expect((await ask(server, user, topic, { text })).done).not.toBeNull();
    return { topic, messages: await messagesOf(user, topic) };
  }
  const messagesOf = async (user: User, topic: string) =>
    (await call(server, `/api/v1/topic/${topic}`, { token: user.token, tenant: user.tenant })).body
      .messages as Stored[];
  const rate = (user: User, topic: string, message: string, body: Json, tenant = user.tenant) =>
    call(server, `/api/v1/topic/${topic}/message/${message}/feedback`, {
      method: 'PUT',
      token: user.token,
      tenant,
      body,
    });
  const replies = (messages: Stored[]) => messages.filter((message) => message.role === 'bot');

  it('sets, changes, keeps the reason of, and takes back the member’s thumbs; the message shows them', async () => {
    const { topic, messages } = await conversation(alice, bots.ELIZA);
    const [question] = messages;
    const [reply] = replies(messages);
    // Replies carry the member's thumbs (none yet); their own messages carry none.
    expect(reply.feedback).toBeNull();
    expect(question).not.toHaveProperty('feedback');

    expect((await rate(alice, topic, reply._id, { rating: 'up' })).body).toEqual({
      rating: 'up',
      reason: '',
    });
    const reasoned = await rate(alice, topic, reply._id, {
      rating: 'up',
      reason: '  Kind and to the point \n',
    });
    expect(reasoned.status).toBe(200);
    expect(reasoned.body).toEqual({ rating: 'up', reason: 'Kind and to the point' });
    // The same thumb again without a reason keeps it; the other thumb drops it (it was the first's).
    expect((await rate(alice, topic, reply._id, { rating: 'up' })).body.reason).toBe('Kind and to the point');
    expect(replies(await messagesOf(alice, topic))[0].feedback).toEqual({
      rating: 'up',
      reason: 'Kind and to the point',
    });
    expect((await rate(alice, topic, reply._id, { rating: 'down' })).body).toEqual({
      rating: 'down',
      reason: '',
    });
    const removed = await rate(alice, topic, reply._id, { rating: null, reason: 'ignored' });
    expect(removed.status).toBe(200);
    expect(removed.body).toBeNull();
    expect(replies(await messagesOf(alice, topic))[0].feedback).toBeNull();
    // Taking back what is not there is no error.
    expect((await rate(alice, topic, reply._id, { rating: null })).status).toBe(200);
  });

  it('refuses what is not a reply of the member’s own conversation, and bad input, changing nothing', async () => {
    const { topic, messages } = await conversation(alice, bots.ELIZA);
    const [question] = messages;
    const [reply] = replies(messages);
    const other = await conversation(alice, bots.Calculator, ['2+2']);
    await rate(alice, topic, reply._id, { rating: 'up', reason: 'Good' });

    const refusals: [Json, number, string, string?][] = [
      [await rate(alice, topic, question._id, { rating: 'up' }), 400, 'NOT_A_REPLY', 'messageId'],
      [await rate(alice, topic, 'no-such-message', { rating: 'up' }), 404, 'NOT_FOUND'],
      // A message of the member's other conversation, named under this one.
      [await rate(alice, topic, replies(other.messages)[0]._id, { rating: 'up' }), 404, 'NOT_FOUND'],
      [await rate(alice, topic, reply._id, { rating: 'meh' }), 400, 'INVALID_INPUT'],
      [await rate(alice, topic, reply._id, {}), 400, 'INVALID_INPUT'],
      [
        await rate(alice, topic, reply._id, { rating: 'down', reason: 'x'.repeat(1001) }),
        400,
        'INVALID_INPUT',
      ],
      [await rate(alice, topic, reply._id, { rating: 'down', reason: 42 }), 400, 'INVALID_INPUT'],
      [
        await rate(alice, topic, reply._id, { rating: 'down', reason: 'nul \u0000 byte' }),
        400,
        'INVALID_INPUT',
      ],
      [await rate(alice, topic, reply._id, { rating: 'down', who: 'me' }), 400, 'INVALID_INPUT'],
      [
        await call(server, `/api/v1/topic/${topic}/message/${reply._id}/feedback`, {
          method: 'PUT',
          body: { rating: 'down' },
        }),
        401,
        'UNAUTHORIZED',
      ],
    ];
    for (const [answer, status, code, field] of refusals) {
      expect(answer.status).toBe(status);
      expect(answer.body.code).toBe(code);
      expect(typeof answer.body.error).toBe('string');
      if (field) expect(answer.body.field).toBe(field);
    }
    expect(replies(await messagesOf(alice, topic))[0].feedback).toEqual({ rating: 'up', reason: 'Good' });
    // A reason of exactly 1,000 characters is taken.
    expect((await rate(alice, topic, reply._id, { rating: 'down', reason: 'y'.repeat(1000) })).status).toBe(
      200,
    );
  });

  it('keeps every member to their own replies: another member’s or organization’s is 404, 0 crossings', async () => {
    const mine = await conversation(alice, bots.ELIZA);
    const reply = replies(mine.messages)[0]._id;
    await rate(alice, mine.topic, reply, { rating: 'up', reason: 'Mine' });
    const attempts = [
      await rate(bob, mine.topic, reply, { rating: 'down', reason: 'Not yours' }),
      await rate(bob, mine.topic, reply, { rating: null }),
      await rate(carol, mine.topic, reply, { rating: 'down' }),
      await rate(carol, mine.topic, reply, { rating: null }),
      // A token of acme presented to app is no session there.
      await rate(carol, mine.topic, reply, { rating: 'down' }, 'app'),
    ];
    const crossings = attempts.filter((answer) => answer.status < 400);
    expect(crossings).toEqual([]);
    expect(attempts.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 401]);
    // Nor does another member read them through the conversation.
    expect((await call(server, `/api/v1/topic/${mine.topic}`, { token: bob.token })).status).toBe(404);
    expect(replies(await messagesOf(alice, mine.topic))[0].feedback).toEqual({
      rating: 'up',
      reason: 'Mine',
    });
  });

  it('gives admins the figures per bot and model, newest reasons first and capped, outliving the conversation', async () => {
    // acme's figures start empty and stay apart from app's.
    const acmeOwner = await loginOwner(server, 'acme');
    const acmeFigures = () =>
      call(server, '/api/v1/admin/feedback', { token: acmeOwner.token, tenant: 'acme' });
    expect((await acmeFigures()).body).toEqual([]);

    const owner = await loginOwner(server, 'app');
    const figures = async () => {
      const answer = await call(server, '/api/v1/admin/feedback', { token: owner.token });
      expect(answer.status).toBe(200);
      return answer.body as Json[];
    };
    const before = await figures();
    const counted = (rows: Json[], bot: string, model: string | null = null) =>
      rows.find((row) => row.bot?._id === bot && (row.model?._id ?? null) === model) ?? { up: 0, down: 0 };

    // A catalogue model wrote some of the Calculator's replies (the reply pipeline records it per message).
    const { rows: planted } = await server.app.db.query<{ id: string }>(
      `insert into models (tenant, name, model) values ('app', 'Sum Model', 'sum-1') returning id`,
    );
    const model = planted[0].id;
    const questions = Array.from({ length: 23 }, (_, index) => `${index}+1`);
    const sums = await conversation(bob, bots.Calculator, questions);
    const sumReplies = replies(sums.messages);
    await server.app.db.query('update messages set model_id = $1 where id = any($2)', [
      model,
      sumReplies.slice(0, 22).map((reply) => reply._id),
    ]);
    // 21 up with a reason each, one down without; the last reply (the bot's own model) down.
    for (const [index, reply] of sumReplies.slice(0, 21).entries())
      expect(
        (await rate(bob, sums.topic, reply._id, { rating: 'up', reason: `Reason ${index}` })).status,
      ).toBe(200);
    await rate(bob, sums.topic, sumReplies[21]._id, { rating: 'down' });
    await rate(bob, sums.topic, sumReplies[22]._id, { rating: 'down', reason: 'Wrong sum' });
    const eliza = await conversation(alice, bots.ELIZA);
    await rate(alice, eliza.topic, replies(eliza.messages)[0]._id, { rating: 'down', reason: 'Evasive' });
    // acme's member rates in acme: app's figures do not move for it.
    const acmeBots = await call(server, '/api/v1/bot', { token: carol.token, tenant: 'acme' });
    const acmeBot = acmeBots.body[0] as { _id: string; name: string };
    const theirs = await conversation(carol, acmeBot._id);
    await rate(carol, theirs.topic, replies(theirs.messages)[0]._id, { rating: 'up', reason: 'Acme only' });

    const after = await figures();
    const onModel = after.find((row) => row.model?._id === model);
    expect(onModel.bot).toEqual({ _id: bots.Calculator, name: 'Calculator' });
    expect(onModel.model).toEqual({ _id: model, name: 'Sum Model' });
    expect([onModel.up, onModel.down]).toEqual([21, 1]);
    // The 20 newest reasons, newest first; the empty one is no reason.
    expect(onModel.reasons.map((reason: Json) => reason.text)).toEqual(
      Array.from({ length: 20 }, (_, index) => `Reason ${20 - index}`),
    );
    for (const reason of onModel.reasons)
      expect(Object.keys(reason).sort()).toEqual(['at', 'rating', 'text']);
    expect(onModel.reasons[0].rating).toBe('up');
    const ownModel = counted(after, bots.Calculator);
    expect([ownModel.up, ownModel.down]).toEqual([
      counted(before, bots.Calculator).up,
      counted(before, bots.Calculator).down + 1,
    ]);
    expect(ownModel.model).toBeNull();
    expect(ownModel.reasons[0]).toMatchObject({ text: 'Wrong sum', rating: 'down' });
    const elizaRow = counted(after, bots.ELIZA);
    expect(elizaRow.down).toBe(counted(before, bots.ELIZA).down + 1);
    expect(elizaRow.reasons[0].text).toBe('Evasive');
    // Never who, nor the conversation.
    const text = JSON.stringify(after);
    for (const secret of [bob.id, alice.id, bob.username, sums.topic, sumReplies[0]._id, 'Acme only'])
      expect(text).not.toContain(secret);
    expect((await acmeFigures()).body).toEqual([
      {
        bot: { _id: acmeBot._id, name: acmeBot.name },
        model: null,
        up: 1,
        down: 0,
        reasons: [{ text: 'Acme only', rating: 'up', at: expect.any(String) }],
      },
    ]);

    // The conversation deleted, its thumbs still count.
    expect(
      (await call(server, `/api/v1/topic/${sums.topic}`, { method: 'DELETE', token: bob.token })).status,
    ).toBe(200);
    expect(await figures()).toEqual(after);
  });

  it('gives the member their thumbs and reasons in their data download, nobody else’s', async () => {
    const { topic, messages } = await conversation(alice, bots.ELIZA);
    const reply = replies(messages)[0]._id;
    await rate(alice, topic, reply, { rating: 'down', reason: 'Mine to download' });
    const theirs = await conversation(bob, bots.ELIZA);
    await rate(bob, theirs.topic, replies(theirs.messages)[0]._id, { rating: 'up', reason: 'Bob’s reason' });
    const exported = (await call(server, '/api/v1/user/me/export', { token: alice.token })).body;
    expect(exported.feedback).toContainEqual({
      message: reply,
      rating: 'down',
      reason: 'Mine to download',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(exported.feedback)).not.toContain('Bob’s reason');
  });

  it('lets only admins of the organization read the figures', async () => {
    const asMember = await call(server, '/api/v1/admin/feedback', { token: alice.token });
    expect(asMember.status).toBe(403);
    expect((await call(server, '/api/v1/admin/feedback')).status).toBe(401);
    // acme's owner with app named: their token is no session in app.
    const acmeOwner = await loginOwner(server, 'acme');
    expect(
      (await call(server, '/api/v1/admin/feedback', { token: acmeOwner.token, tenant: 'app' })).status,
    ).toBe(401);
  });
});
