import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { type RunningPostgres, startPostgres } from '../../support/postgres';
import { readEvents } from '../../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;

/** Sends one message; answers the status and, for a stream, its events. */
async function message(server: TestServer, user: User, topic: string, text: string) {
  const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify({ text }),
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    return { status: response.status, body: await response.json(), events: [] };
  }
  return { status: response.status, body: null, events: await readEvents(response) };
}

async function topics(server: TestServer, user: User, bot: string, count: number) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const answer = await call(server, '/api/v1/topic', { token: user.token, body: { bot } });
      expect(answer.status).toBe(201);
      return answer.body._id as string;
    }),
  );
}

async function ledger(server: TestServer, user: User) {
  const { rows } = await server.app.db.query<{
    balance: string;
    reserved: string;
    charges: string;
    paid: string;
  }>(
    `select u.balance, u.reserved,
            (select coalesce(sum(-amount), 0) from transactions where user_id = u.id and amount < 0) as charges,
            (select count(*) from messages m join topics t on t.id = m.topic_id
             where t.user_id = u.id and m.role = 'bot' and m.status = 'complete' and m.cost > 0) as paid
     from users u where u.id = $1`,
    [user.id],
  );
  const row = rows[0];
  return {
    balance: Number(row.balance),
    reserved: Number(row.reserved),
    charges: Number(row.charges),
    paid: Number(row.paid),
  };
}

const databases: [string, boolean][] = [
  ['PGlite', false],
  ['PostgreSQL', true],
];

describe.each(databases)(
  'money on %s: a reply is reserved before its first token and settled after',
  (_, postgres) => {
    let database: RunningPostgres | undefined;
    let server: TestServer;
    let eliza: string;

    beforeAll(async () => {
      database = postgres ? await startPostgres() : undefined;
      server = await startApp({
        STARTING_BALANCE: '0.01',
        BUILTIN_TOKEN_DELAY_MS: '2',
        ...(database ? { DATABASE_URL: database.url } : {}),
      });
      const user = await signUp(server);
      const bots = await call(server, '/api/v1/bot', { token: user.token });
      eliza = bots.body.find((bot: { name: string }) => bot.name === 'ELIZA')._id;
    }, 90_000);
    afterAll(async () => {
      await server?.close();
      database?.stop();
    });

    it('100 simultaneous messages with credit for one: exactly one paid reply, 99 refused with 402 before any token', async () => {
      const user = await signUp(server);
      const ids = await topics(server, user, eliza, 100);
      const answers = await Promise.all(
        ids.map((topic) => message(server, user, topic, 'Men are all alike.')),
      );

      const completed = answers.filter((answer) => answer.events.at(-1)?.event === 'done');
      const refused = answers.filter((answer) => answer.status === 402);
      expect(completed).toHaveLength(1);
      expect(refused).toHaveLength(99);
      for (const answer of refused) expect(answer.body).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
      // No reply streamed and then failed for money.
      expect(answers.filter((answer) => answer.events.some((event) => event.event === 'error'))).toEqual([]);
      expect(completed[0].events.at(-1)?.data).toMatchObject({ cost: 0.01, balance: 0 });

      const after = await ledger(server, user);
      expect(after).toEqual({ balance: 0, reserved: 0, charges: 0.01, paid: 1 });
      // Nothing half-written: the refused messages left no trace in their topics.
      const { rows } = await server.app.db.query<{ count: string }>(
        'select count(*) from messages m join topics t on t.id = m.topic_id where t.user_id = $1',
        [user.id],
      );
      expect(Number(rows[0].count)).toBe(2);
    });

    it('keeps balance = credit − charges and never negative under 100 racing messages, stops included', async () => {
      const user = await signUp(server);
      // 0.25 of credit in all: 24 more replies of 0.01 than the first test's.
      await server.app.db.query('update users set balance = 0.25 where id = $1', [user.id]);
      const ids = await topics(server, user, eliza, 100);
      const answers = await Promise.all(
        ids.map(async (topic, index) => {
          if (index % 10 !== 0) return message(server, user, topic, 'I am unhappy.');
          // Every tenth client stops its reply at the first token: stopped, released, not charged.
          const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
            body: JSON.stringify({ text: 'Tell me a long story about my mother and my father.' }),
          });
          if (response.status !== 200)
            return { status: response.status, body: await response.json(), events: [] };
          let stopping: Promise<unknown> | undefined;
          const events = await readEvents(response, (event) => {
            if (event.event === 'token')
              stopping ??= call(server, `/api/v1/topic/${topic}/stop`, {
                method: 'POST',
                token: user.token,
                body: {},
              });
          });
          await stopping;
          return { status: 200, body: null, events };
        }),
      );
      const completed = answers.filter((answer) => answer.events.at(-1)?.event === 'done').length;
      expect(answers.every((answer) => answer.status === 200 || answer.status === 402)).toBe(true);
      // A stopped reply gives its reservation back, so a later message may take it: never more than 25.
      expect(completed).toBeGreaterThan(0);
      expect(completed).toBeLessThanOrEqual(25);
      const errors = answers.flatMap((answer) => answer.events.filter((event) => event.event === 'error'));
      expect(errors.every((event) => event.data.code === 'STOPPED')).toBe(true);

      // Stopped replies settle asynchronously on the server: wait until nothing is held.
      await expect.poll(async () => (await ledger(server, user)).reserved, { timeout: 10_000 }).toBe(0);
      const after = await ledger(server, user);
      expect(after.paid).toBe(completed);
      expect(after.charges).toBeCloseTo(completed * 0.01, 10);
      expect(after.balance).toBeCloseTo(0.25 - after.charges, 10);
      expect(after.balance).toBeGreaterThanOrEqual(0);
    });
  },
);
