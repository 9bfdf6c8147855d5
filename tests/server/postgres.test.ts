import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../support/app';
import { type RunningPostgres, startPostgres } from '../support/postgres';
import { readEvents } from '../support/sse';

describe('the same schema and flow on a real PostgreSQL (DATABASE_URL)', () => {
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

  it('migrates, seeds, signs up, logs in, chats and charges', async () => {
    const user = await signUp(server, 'acme');
    const login = await call(server, '/auth/login', {
      tenant: 'acme',
      body: { email: user.encrypt(user.email), password: user.encrypt(user.password) },
    });
    expect(login.status).toBe(200);
    const bots = await call(server, '/api/v1/bot', { tenant: 'acme', token: user.token });
    const eliza = bots.body.find((bot: { name: string }) => bot.name === 'ELIZA');
    const topic = await call(server, '/api/v1/topic', {
      tenant: 'acme',
      token: user.token,
      body: { bot: eliza._id },
    });
    const response = await fetch(`${server.url}/api/v1/topic/${topic.body._id}/message`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${user.token}`,
        organization: 'acme',
      },
      body: JSON.stringify({ text: 'Men are all alike.' }),
    });
    const events = await readEvents(response);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { balance: 9.99 } });
    // The same search as on PGlite: case- and accent-insensitive, any script.
    const search = (q: string) =>
      call(server, `/api/v1/topic?q=${encodeURIComponent(q)}`, { tenant: 'acme', token: user.token });
    expect((await search('ALIKE')).body.items.map((item: { _id: string }) => item._id)).toEqual([
      topic.body._id,
    ]);
    await call(server, `/api/v1/topic/${topic.body._id}`, {
      method: 'PATCH',
      tenant: 'acme',
      token: user.token,
      body: { title: 'Crème brûlée и Ёлка' },
    });
    for (const q of ['creme BRULEE', 'ёлка', 'ЕЛК'])
      expect((await search(q)).body.items.map((item: { _id: string }) => item._id)).toEqual([topic.body._id]);
    const { rows } = await server.app.db.query<{ name: string }>(
      'select name from schema_migrations order by name',
    );
    // Every migration the server ships, and nothing else, in order.
    expect(rows.map((row) => row.name)).toEqual(
      readdirSync('server/db/migrations')
        .filter((name) => name.endsWith('.sql'))
        .sort(),
    );
    expect(rows.length).toBeGreaterThanOrEqual(15);
  });
});
