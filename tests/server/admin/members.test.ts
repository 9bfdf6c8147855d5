import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationAddress } from '../../../server/organizations/address';
import { call, encrypter, type Json, signUp, startApp, type TestServer } from '../../support/app';
import { readMail } from '../../support/outbox';
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

  /** Signs up with the invitation's code, as its mail says: the answer, not thrown. */
  async function signUpInvited(tenant: string, email: string, otp: string) {
    const encrypt = await encrypter(server);
    return call(server, '/auth/signup', {
      tenant,
      body: {
        email: encrypt(email),
        password: encrypt('correct horse battery'),
        username: `inv${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
        displayName: 'Invited',
        otp,
      },
    });
  }
  const invite = (email: string, role = 'member') =>
    admin(server, owner, '/member/invite', { body: { email: owner.encrypt(email), role } });
  const pending = async (email: string) =>
    ((await admin(server, owner, '/invitation')).body as Json[]).find((item) => item.email === email);
  const auditOf = async (action: string) =>
    ((await admin(server, owner, '/audit?limit=20')).body.items as Json[]).find(
      (entry) => entry.action === action,
    );

  it('lists pending invitations with their role and expiry; an accepted one leaves the list', async () => {
    const email = `pending${Date.now().toString(36)}@example.org`;
    const before = Date.now();
    expect((await invite(email, 'admin')).body).toEqual({ sent: true });
    const listed = await pending(email);
    expect(Object.keys(listed).sort()).toEqual(['_id', 'email', 'expiresAt', 'invitedAt', 'role']);
    expect(listed).toMatchObject({ email, role: 'admin' });
    const invitedAt = Date.parse(listed.invitedAt);
    expect(invitedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(listed.expiresAt) - invitedAt).toBe(72 * 3600_000);
    expect(await auditOf('member.invite')).toMatchObject({
      actor: owner.id,
      target: listed._id,
      after: { email, role: 'admin', expiresAt: listed.expiresAt },
    });
    const joined = await signUpInvited('acme', email, await readCode(server.dataDir, email));
    expect(joined.status).toBe(200);
    expect(await pending(email)).toBeUndefined();
  });

  it("mails a link to the organization's sign-up with the address filled in, and when it expires", async () => {
    const email = `Link.${Date.now().toString(36)}@Example.org`;
    const port = new URL(server.url).port;
    // As the admin's browser sends it, on the organization's own address.
    const answer = await call(server, '/api/v1/admin/member/invite', {
      tenant: 'acme',
      token: owner.token,
      host: `acme.parley.localhost:${port}`,
      body: { email: owner.encrypt(email), role: 'member' },
    });
    expect(answer.status).toBe(200);
    const mail = await readMail(server.dataDir, email);
    const link = `http://acme.parley.localhost:${port}/register?email=${encodeURIComponent(email.toLowerCase())}`;
    expect(mail).toContain(`Sign up here, with your address filled in:\n${link}\n`);
    const { expiresAt } = await pending(email.toLowerCase());
    const when = new Intl.DateTimeFormat('en-GB', {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(new Date(expiresAt));
    expect(when).toMatch(/^\w+day,? \d{1,2} \w+ \d{4} at \d\d:\d\d$/);
    expect(mail).toContain(`The invitation expires on ${when} (UTC)`);
    expect(mail).toMatch(/Your Parley code is \d{6}/);
  });

  it('links to PUBLIC_URL with the organization in front when set, else to the address asked for', () => {
    const request = { protocol: 'http' as const, host: 'app.parley.localhost:3000' };
    const address = (publicUrl: string | undefined, host = request.host, tenant = 'acme') =>
      organizationAddress({ publicUrl }, { ...request, host }, tenant).origin;
    expect(address('https://parley.example')).toBe('https://acme.parley.example');
    expect(address('https://parley.example', request.host, 'app')).toBe('https://parley.example');
    // Behind a proxy every node links alike; without PUBLIC_URL, the host asked for names the site.
    expect(address(undefined)).toBe('http://acme.parley.localhost:3000');
    expect(address(undefined, 'acme.parley.localhost:3000')).toBe('http://acme.parley.localhost:3000');
    expect(address(undefined, 'parley.example')).toBe('http://acme.parley.example');
    // localhost and IP addresses carry no label: they stand for the default organization.
    expect(address(undefined, 'localhost:3000')).toBe('http://localhost:3000');
    expect(address(undefined, '127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(address(undefined, '[::1]:3000')).toBe('http://[::1]:3000');
  });

  it('resends an invitation: a new code and time, the old code stops working, audited', async () => {
    const email = `resend${Date.now().toString(36)}@example.org`;
    await invite(email);
    const first = await readCode(server.dataDir, email);
    const { _id, expiresAt } = await pending(email);
    // An older invitation: the resend gives it its full time again.
    await server.app.db.query("update invitations set expires_at = now() + interval '1 hour' where id = $1", [
      _id,
    ]);
    const resent = await admin(server, owner, `/invitation/${_id}/resend`, { method: 'POST' });
    expect((await auditOf('invitation.resend'))?.names).toEqual({ [_id]: email });
    expect(resent).toMatchObject({ status: 200, body: { sent: true } });
    let second = first;
    await expect
      .poll(async () => {
        second = await readCode(server.dataDir, email);
        return second !== first;
      })
      .toBe(true);
    const renewed = await pending(email);
    expect(renewed._id).toBe(_id);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(await auditOf('invitation.resend')).toMatchObject({
      target: _id,
      after: { expiresAt: renewed.expiresAt },
    });
    // Five codes an hour per address, as on the sign-up page: a sixth is refused.
    const resend = () => admin(server, owner, `/invitation/${_id}/resend`, { method: 'POST' });
    for (let sent = 2; sent < 5; sent += 1) expect((await resend()).status).toBe(200);
    expect(await resend()).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    const newest = await readCode(server.dataDir, email);
    expect((await signUpInvited('acme', email, first)).body).toMatchObject({ code: 'INVALID_CODE' });
    if (newest !== second)
      expect((await signUpInvited('acme', email, second)).body).toMatchObject({ code: 'INVALID_CODE' });
    expect((await signUpInvited('acme', email, newest)).status).toBe(200);
    expect((await admin(server, owner, `/invitation/${_id}/resend`, { method: 'POST' })).status).toBe(404);
  });

  it('revokes an invitation: its code fails at once, even where anyone may sign up; audited', async () => {
    // acme admits anyone: without the code withdrawn, the invitee could still join.
    const email = `revoke${Date.now().toString(36)}@example.org`;
    await invite(email, 'admin');
    const otp = await readCode(server.dataDir, email);
    const { _id } = await pending(email);
    const revoked = await admin(server, owner, `/invitation/${_id}`, { method: 'DELETE' });
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });
    expect(await pending(email)).toBeUndefined();
    expect(await auditOf('invitation.revoke')).toMatchObject({
      target: _id,
      before: { email, role: 'admin' },
      after: null,
      // The log names a revoked invitation by its address, as it named it while it was pending.
      names: { [_id]: email },
    });
    expect((await signUpInvited('acme', email, otp)).body).toMatchObject({ code: 'INVALID_CODE' });
    expect((await admin(server, owner, `/invitation/${_id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('an expired invitation is listed as it is, admits nobody, and a resend revives it', async () => {
    const settings = async (signup: string) =>
      admin(server, owner, '/settings', { method: 'PATCH', body: { signup } });
    const email = `expired${Date.now().toString(36)}@example.org`;
    await invite(email, 'admin');
    const { _id } = await pending(email);
    await server.app.db.query(
      "update invitations set expires_at = now() - interval '1 minute' where id = $1",
      [_id],
    );
    expect(Date.parse((await pending(email)).expiresAt)).toBeLessThan(Date.now());
    await settings('invite');
    try {
      const encrypt = await encrypter(server);
      const asked = await call(server, '/auth/otp', { tenant: 'acme', body: { email: encrypt(email) } });
      expect(asked).toMatchObject({ status: 403, body: { code: 'INVITATION_EXPIRED', field: 'email' } });
      await admin(server, owner, `/invitation/${_id}/resend`, { method: 'POST' });
      const joined = await signUpInvited('acme', email, await readCode(server.dataDir, email));
      expect(joined.status).toBe(200);
      expect(
        (await call(server, '/api/v1/user/me', { token: joined.body.token, tenant: 'acme' })).body.role,
      ).toBe('admin');
    } finally {
      await settings('open');
    }
  });

  it("answers 404 for another organization's invitation and lists only the organization's own", async () => {
    const appOwner = await loginOwner(server, 'app');
    const email = `elsewhere${Date.now().toString(36)}@example.org`;
    await admin(server, appOwner, '/member/invite', {
      body: { email: appOwner.encrypt(email), role: 'member' },
    });
    const theirs = ((await admin(server, appOwner, '/invitation')).body as Json[]).find(
      (item) => item.email === email,
    );
    expect(await pending(email)).toBeUndefined();
    expect((await admin(server, owner, `/invitation/${theirs._id}/resend`, { method: 'POST' })).status).toBe(
      404,
    );
    expect((await admin(server, owner, `/invitation/${theirs._id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin(server, appOwner, '/invitation')).body.map((item: Json) => item._id)).toContain(
      theirs._id,
    );
  });

  it('credit: only an owner credits an admin, an owner or themselves; amounts are whole cents', async () => {
    const anAdmin = await member(server, 'acme', 'admin');
    const other = await member(server, 'acme', 'admin');
    const plain = await signUp(server, 'acme');
    const asAdmin = { token: anAdmin.token, tenant: 'acme' };
    const credit = (actor: { token: string; tenant: string }, id: string, amount: number) =>
      admin(server, actor, `/member/${id}/credit`, { body: { amount, note: 'bonus' } });
    for (const id of [anAdmin.id, other.id, owner.id]) {
      const refused = await credit(asAdmin, id, 1_000_000);
      expect(refused).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      expect(refused.body.error).toMatch(/Only an owner can grant or deduct credit/);
    }
    expect((await credit(asAdmin, plain.id, 0.29)).body.balance).toBe(10.29);
    expect((await credit(owner, anAdmin.id, 2.5)).body.balance).toBe(12.5);
    const own = await credit(owner, owner.id, 1);
    expect(own.status).toBe(200);
    await credit(owner, owner.id, -1);
    for (const amount of [0.001, 1.005, -0.999, 1e-9]) {
      const refused = await credit(owner, plain.id, amount);
      expect(refused).toMatchObject({ status: 400, body: { field: 'amount' } });
    }
    const { rows } = await server.app.db.query<{ balance: string }>(
      'select balance from users where id = any($1::text[]) order by array_position($1::text[], id)',
      [[anAdmin.id, other.id, plain.id]],
    );
    expect(rows.map((row) => Number(row.balance))).toEqual([12.5, 10, 10.29]);
    const notes = await call(server, '/api/v1/notification', { token: plain.token, tenant: 'acme' });
    expect(notes.body.map((item: Json) => item.body)).not.toEqual(
      expect.arrayContaining([expect.stringContaining('+0.00')]),
    );
  });

  it('credit: 20 parallel self-credits of a non-owner admin are all refused, and nothing is booked', async () => {
    const anAdmin = await member(server, 'acme', 'admin');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin(server, { token: anAdmin.token, tenant: 'acme' }, `/member/${anAdmin.id}/credit`, {
          body: { amount: 1000, note: 'mine' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(403));
    const { rows } = await server.app.db.query<{ balance: string; booked: string }>(
      'select balance, (select count(*) from transactions where user_id = $1) as booked from users where id = $1',
      [anAdmin.id],
    );
    // The welcome credit, and nothing else.
    expect([Number(rows[0].balance), Number(rows[0].booked)]).toEqual([10, 1]);
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
