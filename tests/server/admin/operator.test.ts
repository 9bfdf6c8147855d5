import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, encrypter, startApp, type TestServer } from '../../support/app';
import { killOperatorCommands, parley } from '../../support/operator';
import { type RunningPostgres, startPostgres } from '../../support/postgres';
import { admin, login, readCode } from './support';

/** The new owner chooses a password with the mailed code (the reset-password flow) and is signed in. */
async function choosePassword(server: TestServer, tenant: string, email: string, password: string) {
  const otp = await readCode(server.dataDir, email);
  const encrypt = await encrypter(server);
  return call(server, '/auth/password/reset', {
    tenant,
    body: { email: encrypt(email), otp, password: encrypt(password) },
  });
}

describe('the operator command on the embedded database', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-operator-'));
  });
  afterAll(() => {
    killOperatorCommands();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The first command migrates and seeds an empty database: a minute or more beside the browser tests.
  it('creates an organization and mails its owner, who sets a password and runs it', {
    timeout: 240_000,
  }, async () => {
    const created = await parley(
      ['org', 'create', 'beta', '--name', 'Beta Corp', '--owner', 'boss@beta.example'],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toMatch(/Created the organization beta \(Beta Corp\)/);

    const server = await startApp({}, dataDir);
    try {
      expect((await call(server, '/api/v1/organization/beta')).body).toMatchObject({
        subdomain: 'beta',
        name: 'Beta Corp',
      });
      const reset = await choosePassword(server, 'beta', 'boss@beta.example', 'beta-owner-password');
      expect(reset.status).toBe(200);
      const owner = await login(server, 'beta', 'boss@beta.example', 'beta-owner-password');
      expect((await call(server, '/api/v1/user/me', { token: owner.token, tenant: 'beta' })).body.role).toBe(
        'owner',
      );
      const category = await admin(server, owner, '/category', {
        body: { name: owner.encrypt('General') },
      });
      expect(category.status).toBe(201);
      expect(
        (await admin(server, owner, '/audit')).body.items.map((entry: { action: string }) => entry.action),
      ).toEqual(['category.create', 'organization.create']);

      // While the server holds the embedded database, the command says so and changes nothing.
      const refused = await parley(['org', 'list'], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        /in use by a running Parley server \(process \d+\)\. Stop the server first/,
      );
      expect(refused.out).toBe('');
    } finally {
      await server.close();
    }
  });

  it('lists and disables organizations; a disabled one is not found and refuses logins', async () => {
    const list = await parley(['org', 'list'], { DATA_DIR: dataDir });
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^SUBDOMAIN\s+NAME\s+STATUS\s+MEMBERS\s+OWNERS$/m);
    expect(list.out).toMatch(/^beta\s+Beta Corp\s+active\s+1\s+boss@beta\.example$/m);
    expect(list.out).toMatch(/^acme\s+Acme Corporation\s+active\s+\d+\s+admin@parley\.test$/m);

    const disabled = await parley(['org', 'disable', 'beta'], { DATA_DIR: dataDir });
    expect(disabled).toMatchObject({ code: 0 });
    expect((await parley(['org', 'list'], { DATA_DIR: dataDir })).out).toMatch(
      /^beta\s+Beta Corp\s+disabled/m,
    );
    const server = await startApp({}, dataDir);
    try {
      expect((await call(server, '/api/v1/organization/beta')).status).toBe(404);
      const encrypt = await encrypter(server);
      const refused = await call(server, '/auth/login', {
        tenant: 'beta',
        body: { email: encrypt('boss@beta.example'), password: encrypt('beta-owner-password') },
      });
      expect(refused.status).toBe(403);
      // Its data is kept: the category its owner made, and the Librarian's, seeded with the organization.
      const { rows } = await server.app.db.query(
        'select name from categories where tenant = $1 order by name',
        ['beta'],
      );
      expect(rows).toEqual([{ name: 'Documents' }, { name: 'General' }]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('validates what it is given', async () => {
    const cases: [string[], number, RegExp][] = [
      [['org', 'create', 'app', '--name', 'X', '--owner', 'a@b.example'], 1, /reserved/],
      [['org', 'create', 'www', '--name', 'X', '--owner', 'a@b.example'], 1, /reserved/],
      [['org', 'create', 'Bad_Name', '--name', 'X', '--owner', 'a@b.example'], 1, /lowercase DNS label/],
      [['org', 'create', '-x', '--name', 'X', '--owner', 'a@b.example'], 2, /./],
      [['org', 'create', `${'a'.repeat(64)}`, '--name', 'X', '--owner', 'a@b.example'], 1, /1 to 63/],
      [['org', 'create', 'gamma', '--name', 'X', '--owner', 'not-an-email'], 1, /Not an email address/],
      [['org', 'create', 'gamma', '--owner', 'a@b.example'], 2, /--name/],
      [['org', 'create', 'beta', '--name', 'Again', '--owner', 'a@b.example'], 1, /exists already/],
      [['org', 'disable', 'nowhere'], 1, /No organization nowhere/],
      [['org', 'frobnicate'], 2, /unknown command/],
    ];
    for (const [args, code, message] of cases) {
      const result = await parley(args, { DATA_DIR: dataDir });
      expect([args.join(' '), result.code]).toEqual([args.join(' '), code]);
      expect(result.err).toMatch(message);
    }
  }, 120_000);
});

describe('the operator command on PostgreSQL, while a node runs', () => {
  let postgres: RunningPostgres;
  let server: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    postgres = await startPostgres();
    env = { DATABASE_URL: postgres.url, JWT_SECRET: 'shared by the node and the operator' };
    server = await startApp(env);
    // The command mails into the same outbox the test reads.
    env.DATA_DIR = server.dataDir;
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    postgres?.stop();
  });

  it('creates an organization the running node serves at once, and disables it at once', async () => {
    // The node has looked the name up (and kept the answer) before it exists.
    expect((await call(server, '/api/v1/bot', { tenant: 'delta' })).status).toBe(400);
    const created = await parley(
      ['org', 'create', 'delta', '--name', 'Delta', '--owner', 'owner@delta.example'],
      env,
    );
    expect(created).toMatchObject({ code: 0 });
    const reset = await choosePassword(server, 'delta', 'owner@delta.example', 'delta-owner-password');
    expect(reset.status).toBe(200);
    const token = reset.body.token as string;
    expect((await call(server, '/api/v1/user/me', { token, tenant: 'delta' })).body.role).toBe('owner');

    const disabled = await parley(['org', 'disable', 'delta'], env);
    expect(disabled.code).toBe(0);
    await expect
      .poll(async () => (await call(server, '/api/v1/user/me', { token, tenant: 'delta' })).status)
      .toBe(403);
    expect((await call(server, '/api/v1/organization/delta')).status).toBe(404);
  });
});
