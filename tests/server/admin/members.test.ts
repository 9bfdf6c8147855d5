import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, encrypter, type Json, signUp, startApp, type TestServer } from '../../support/app';
import { type Actor, admin, login, loginOwner, member, readCode } from './support';

describe('admin area: members, roles and credit', () => {
  let server: TestServer;
  let owner: Actor;

  beforeAll(async () => {
    server = await startApp();
    owner = await loginOwner(server, 'acme');
  }, 60_000);
  afterAll(() => server?.close());

  it('GET /api/v1/user/me tells the role', async () => {
    expect((await call(server, '/api/v1/user/me', { token: owner.token, tenant: 'acme' })).body.role).toBe(
      'owner',
    );
    const plain = await signUp(server, 'acme');
    expect((await call(server, '/api/v1/user/me', { token: plain.token, tenant: 'acme' })).body.role).toBe(
      'member',
    );
  });

  it('a role change counts from the next request, both ways', async () => {
    const someone = await signUp(server, 'acme');
    const asThem = () => admin(server, { token: someone.token, tenant: 'acme' }, '/member');
    expect((await asThem()).status).toBe(403);
    const promoted = await admin(server, owner, `/member/${someone.id}`, {
      method: 'PATCH',
      body: { role: 'admin' },
    });
    expect(promoted.body).toMatchObject({ _id: someone.id, role: 'admin', status: 'active' });
    expect((await asThem()).status).toBe(200);
    await admin(server, owner, `/member/${someone.id}`, { method: 'PATCH', body: { role: 'member' } });
    expect((await asThem()).status).toBe(403);
  });

  it('suspension ends the sessions at once with a clear 403, on login too; reinstating lets them log in again', async () => {
    const someone = await signUp(server, 'acme');
    expect((await call(server, '/api/v1/bot', { token: someone.token, tenant: 'acme' })).status).toBe(200);
    const suspended = await admin(server, owner, `/member/${someone.id}`, {
      method: 'PATCH',
      body: { suspended: true },
    });
    expect(suspended.body.status).toBe('suspended');
    for (const path of ['/api/v1/bot', '/api/v1/user/me', '/api/v1/topic']) {
      const answer = await call(server, path, { token: someone.token, tenant: 'acme' });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'SUSPENDED', error: expect.stringMatching(/suspended/) });
    }
    expect((await call(server, '/auth/verify', { token: someone.token, tenant: 'acme' })).body).toEqual({
      verified: 0,
    });
    const loginAnswer = await call(server, '/auth/login', {
      tenant: 'acme',
      body: { email: someone.encrypt(someone.email), password: someone.encrypt(someone.password) },
    });
    expect(loginAnswer).toMatchObject({ status: 403, body: { code: 'SUSPENDED' } });
    const wrongPassword = await call(server, '/auth/login', {
      tenant: 'acme',
      body: { email: someone.encrypt(someone.email), password: someone.encrypt('not the password') },
    });
    expect(wrongPassword.status).toBe(401);

    await admin(server, owner, `/member/${someone.id}`, { method: 'PATCH', body: { suspended: false } });
    // The old session stays ended; a new login works.
    expect((await call(server, '/api/v1/bot', { token: someone.token, tenant: 'acme' })).status).toBe(401);
    const again = await login(server, 'acme', someone.email, someone.password);
    expect((await call(server, '/api/v1/bot', { token: again.token, tenant: 'acme' })).status).toBe(200);
  });

  it('an admin cannot touch an owner or make one; the last owner cannot be demoted, suspended or leave', async () => {
    const anAdmin = await member(server, 'acme', 'admin');
    const asAdmin = { token: anAdmin.token, tenant: 'acme' };
    for (const body of [{ role: 'member' }, { suspended: true }, { role: 'admin' }]) {
      const answer = await admin(server, asAdmin, `/member/${owner.id}`, { method: 'PATCH', body });
      expect(answer).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    }
    const plain = await signUp(server, 'acme');
    expect(
      (await admin(server, asAdmin, `/member/${plain.id}`, { method: 'PATCH', body: { role: 'owner' } }))
        .status,
    ).toBe(403);
    expect(
      (
        await admin(server, asAdmin, '/member/invite', {
          body: { email: anAdmin.encrypt('boss@example.org'), role: 'owner' },
        })
      ).status,
    ).toBe(403);
    // An admin may manage members.
    expect(
      (await admin(server, asAdmin, `/member/${plain.id}`, { method: 'PATCH', body: { role: 'admin' } })).body
        .role,
    ).toBe('admin');

    // A fresh organization with one owner: acme's seeded owner is its only one.
    const demote = await admin(server, owner, `/member/${owner.id}`, {
      method: 'PATCH',
      body: { role: 'admin' },
    });
    expect(demote).toMatchObject({ status: 409, body: { code: 'LAST_OWNER', field: 'role' } });
    const self = await admin(server, owner, `/member/${owner.id}`, {
      method: 'PATCH',
      body: { suspended: true },
    });
    expect(self.status).toBe(400);
    const leave = await call(server, '/api/v1/user/me', {
      method: 'DELETE',
      token: owner.token,
      tenant: 'acme',
      body: { password: owner.encrypt('parley-admin-1') },
    });
    expect(leave).toMatchObject({ status: 409, body: { code: 'LAST_OWNER' } });

    // With a second owner, the first may step down.
    const second = await member(server, 'acme', 'owner');
    expect((await call(server, '/api/v1/user/me', { token: second.token, tenant: 'acme' })).body.role).toBe(
      'owner',
    );
    const secondOwner = { token: second.token, tenant: 'acme' };
    const stepDown = await admin(server, secondOwner, `/member/${owner.id}`, {
      method: 'PATCH',
      body: { role: 'admin' },
    });
    expect(stepDown.body.role).toBe('admin');
    expect(
      (
        await admin(server, secondOwner, `/member/${second.id}`, {
          method: 'PATCH',
          body: { role: 'member' },
        })
      ).status,
    ).toBe(409);
    await admin(server, secondOwner, `/member/${owner.id}`, { method: 'PATCH', body: { role: 'owner' } });
  });

  it('lists members with search and cursor pages', async () => {
    const tag = `zz${Date.now().toString(36)}`;
    const made = [];
    for (let index = 0; index < 5; index += 1)
      made.push(await signUp(server, 'acme', { username: `${tag}${index}` }));
    const seen: Json[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page += 1) {
      const answer = await admin(
        server,
        owner,
        `/member?q=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(answer.status).toBe(200);
      seen.push(...answer.body.items);
      if (!answer.body.next) break;
      cursor = answer.body.next;
    }
    expect(seen.map((item) => item._id).sort()).toEqual(made.map((user) => user.id).sort());
    expect(seen[0]).toMatchObject({ role: 'member', status: 'active', balance: 10, currency: 'EUR' });
    const byEmail = await admin(server, owner, `/member?q=${encodeURIComponent(made[0].email)}`);
    expect(byEmail.body.items.map((item: Json) => item._id)).toEqual([made[0].id]);
    expect((await admin(server, owner, '/member?cursor=nonsense')).body).toMatchObject({ field: 'cursor' });
  });

  it('grants and deducts credit: a transaction in order history, a notification, never below zero', async () => {
    const someone = await signUp(server, 'acme');
    const granted = await admin(server, owner, `/member/${someone.id}/credit`, {
      body: { amount: 5.5, note: 'Conference prize' },
    });
    expect(granted.body).toEqual({ balance: 15.5, reserved: 0, currency: 'EUR' });
    const deducted = await admin(server, owner, `/member/${someone.id}/credit`, {
      body: { amount: -0.5, note: 'Correction' },
    });
    expect(deducted.body.balance).toBe(15);
    const tooMuch = await admin(server, owner, `/member/${someone.id}/credit`, {
      body: { amount: -15.01, note: 'No' },
    });
    expect(tooMuch).toMatchObject({ status: 400, body: { field: 'amount', code: 'INSUFFICIENT_BALANCE' } });
    expect(
      (await admin(server, owner, `/member/${someone.id}/credit`, { body: { amount: 0, note: 'x' } })).status,
    ).toBe(400);
    expect(
      (await admin(server, owner, `/member/${someone.id}/credit`, { body: { amount: 1 } })).body.field,
    ).toBe('note');

    const billing = await call(server, `/payment/billing-info/${someone.id}`, {
      token: someone.token,
      tenant: 'acme',
    });
    expect(billing.body.balance).toBe(15);
    expect(billing.body.transactions.slice(0, 2)).toMatchObject([
      { amount: -0.5, description: 'Deduction: Correction' },
      { amount: 5.5, description: 'Credit: Conference prize' },
    ]);
    const notifications = await call(server, '/api/v1/notification', {
      token: someone.token,
      tenant: 'acme',
    });
    expect(notifications.body.map((item: Json) => item.title)).toEqual(
      expect.arrayContaining(['Credit added', 'Credit deducted']),
    );
    const audit = await admin(server, owner, '/audit?limit=5');
    expect(audit.body.items.find((entry: Json) => entry.action === 'member.credit')).toMatchObject({
      actor: owner.id,
      target: someone.id,
      before: { balance: 15.5 },
      after: { balance: 15, amount: -0.5, note: 'Correction' },
      names: { [someone.id]: someone.displayName },
    });
  });

  it('20 parallel deductions never take the balance below zero, nor below what replies hold', async () => {
    const someone = await signUp(server, 'acme');
    // 10 to start; 2 held by a reply in progress: 8 can be taken, in 1.00 steps.
    await server.app.db.query('update users set reserved = 2 where id = $1', [someone.id]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin(server, owner, `/member/${someone.id}/credit`, { body: { amount: -1, note: 'parallel' } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(8);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(12);
    const { rows } = await server.app.db.query<{ balance: string; reserved: string }>(
      'select balance, reserved from users where id = $1',
      [someone.id],
    );
    expect(Number(rows[0].balance)).toBe(2);
    const { rows: recorded } = await server.app.db.query<{ count: string }>(
      "select count(*) from transactions where user_id = $1 and description = 'Deduction: parallel'",
      [someone.id],
    );
    expect(Number(recorded[0].count)).toBe(8);
  });

  it('invites by email: the code in the mail signs up with the chosen role', async () => {
    const email = `invited${Date.now().toString(36)}@example.org`;
    const invited = await admin(server, owner, '/member/invite', {
      body: { email: owner.encrypt(email), role: 'admin' },
    });
    expect(invited.body).toEqual({ sent: true });
    const otp = await readCode(server.dataDir, email);
    const encrypt = await encrypter(server);
    const answer = await call(server, '/auth/signup', {
      tenant: 'acme',
      body: {
        email: encrypt(email),
        password: encrypt('correct horse battery'),
        username: `inv${Date.now().toString(36)}`,
        displayName: 'Invited',
        otp,
      },
    });
    expect(answer.status).toBe(200);
    expect(
      (await call(server, '/api/v1/user/me', { token: answer.body.token, tenant: 'acme' })).body.role,
    ).toBe('admin');
    const twice = await admin(server, owner, '/member/invite', {
      body: { email: owner.encrypt(email), role: 'member' },
    });
    expect(twice).toMatchObject({ status: 409, body: { field: 'email' } });
  });

  it('pages the audit log newest first, and refuses a cursor that is not one', async () => {
    const all: Json[] = [];
    let cursor = '';
    for (let page = 0; page < 100; page += 1) {
      const answer = await admin(server, owner, `/audit?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...answer.body.items);
      if (!answer.body.next) break;
      cursor = answer.body.next;
    }
    expect(all.length).toBeGreaterThan(10);
    const times = all.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(all.map((entry) => entry._id)).size).toBe(all.length);
    for (const entry of all) {
      expect(Object.keys(entry).sort()).toEqual(
        ['_id', 'action', 'actor', 'actorName', 'after', 'at', 'before', 'names', 'target'].sort(),
      );
    }
    expect((await admin(server, owner, '/audit?cursor=abc')).body).toMatchObject({ field: 'cursor' });
  });
});
