import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, encrypter, signUp, startApp, type TestServer } from '../../support/app';

describe('login limits: per account and address, counted before the hash, in the database', () => {
  let server: TestServer;
  let encrypt: (value: string) => string;
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const login = (email: string, password: string, address: string) =>
    call(server, '/auth/login', {
      headers: from(address),
      body: { email: encrypt(email), password: encrypt(password) },
    });

  beforeAll(async () => {
    server = await startApp({
      TRUST_PROXY: 'true',
      RATE_LIMIT_LOGIN_FAILURES: '5',
      RATE_LIMIT_LOGIN_FAILURES_PER_IP: '40',
    });
    encrypt = await encrypter(server);
  });
  afterAll(() => server.close());

  it('checks at most 5 of 30 simultaneous wrong passwords, and says when to retry', async () => {
    const user = await signUp(server);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => login(user.email, `wrong password ${index}`, '203.0.113.7')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited?.body.error).toMatch(/^Too many failed attempts\. Try again in \d+ (minutes|seconds)\.$/);
    // The right password from the same address waits too: the guesses may have been anyone's.
    expect((await login(user.email, user.password, '203.0.113.7')).status).toBe(429);
  });

  it("does not lock the owner out from another address because of a stranger's failures", async () => {
    const user = await signUp(server);
    for (let index = 0; index < 30; index += 1) await login(user.email, `guess ${index}`, '198.51.100.9');
    expect((await login(user.email, user.password, '192.0.2.44')).status).toBe(200);
  });

  it('clears the count of (account, address) on a successful login', async () => {
    const user = await signUp(server);
    for (let round = 0; round < 3; round += 1) {
      for (let index = 0; index < 4; index += 1)
        expect((await login(user.email, 'not it at all', '192.0.2.50')).status).toBe(401);
      expect((await login(user.email, user.password, '192.0.2.50')).status).toBe(200);
    }
  });

  it('limits one address across accounts with a larger threshold', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 45; index += 1)
      statuses.push((await login(`someone${index}@example.org`, 'password', '192.0.2.99')).status);
    expect(statuses.slice(0, 40).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(40).every((status) => status === 429)).toBe(true);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says the proxy is trusted', async () => {
    const untrusting = await startApp({ RATE_LIMIT_LOGIN_FAILURES: '2' });
    const encryptThere = await encrypter(untrusting);
    const user = await signUp(untrusting);
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const answer = await call(untrusting, '/auth/login', {
        headers: from(`10.9.9.${index}`),
        body: { email: encryptThere(user.email), password: encryptThere('wrong again') },
      });
      statuses.push(answer.status);
    }
    await untrusting.close();
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

describe('limits survive a restart', () => {
  it('keeps counting login failures after the server restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-limits-'));
    let server = await startApp({ RATE_LIMIT_LOGIN_FAILURES: '3' }, dataDir);
    const user = await signUp(server);
    const attempt = async () =>
      (
        await call(server, '/auth/login', {
          body: { email: user.encrypt(user.email), password: user.encrypt('nope!') },
        })
      ).status;
    expect([await attempt(), await attempt(), await attempt()]).toEqual([401, 401, 401]);
    await server.close();
    server = await startApp({ RATE_LIMIT_LOGIN_FAILURES: '3' }, dataDir);
    expect(await attempt()).toBe(429);
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('the API rate limit counts the API only', () => {
  let server: TestServer;
  let site: string;

  beforeAll(async () => {
    site = mkdtempSync(join(tmpdir(), 'parley-site-'));
    mkdirSync(join(site, 'assets'));
    writeFileSync(
      join(site, 'index.html'),
      '<!doctype html><title>Parley</title><script src="/assets/app.js"></script>',
    );
    writeFileSync(join(site, 'assets', 'app.js'), 'console.log("parley")');
    server = await startApp({ STATIC_DIR: site, RATE_LIMIT_API_PER_MINUTE: '600' });
  });
  afterAll(async () => {
    await server.close();
    rmSync(site, { recursive: true, force: true });
  });

  it('answers 700 page loads a minute from one address with 200, and still limits the API', async () => {
    const paths = ['/', '/list', '/assets/app.js', '/health'];
    const statuses: number[] = [];
    for (let batch = 0; batch < 7; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, index) => fetch(`${server.url}${paths[index % paths.length]}`)),
      );
      statuses.push(...answers.map((answer) => answer.status));
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    }
    expect(statuses).toHaveLength(700);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const api: number[] = [];
    for (let batch = 0; batch < 7; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => fetch(`${server.url}/api/v1/organization/acme`)),
      );
      api.push(...answers.map((answer) => answer.status));
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    }
    expect(api.filter((status) => status === 200)).toHaveLength(600);
    expect(api.filter((status) => status === 429)).toHaveLength(100);
  });
});
