import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDisabled } from '../../../server/operator/organizations';
import { call, encrypter, signUp, startApp, type TestServer } from '../../support/app';
import { type Actor, admin, login, loginOwner, readCode } from './support';

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a5d40000000049454e44ae426082',
    'hex',
  ),
]);
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123456"/></svg>';

const guide = 'server/seed/guide';

describe('admin area: settings, logo, sign-up policy and disabled organizations', () => {
  let server: TestServer;
  let owner: Actor;

  beforeAll(async () => {
    server = await startApp();
    owner = await loginOwner(server, 'acme');
  }, 60_000);
  afterAll(() => server?.close());

  it('reads the settings, and the organization lookup keeps its fields and adds the public ones', async () => {
    const settings = await admin(server, owner, '/settings');
    expect(settings.body).toEqual({
      name: 'Acme Corporation',
      brandColor: null,
      logo: null,
      defaultLanguage: 'en',
      currency: 'EUR',
      startingBalance: 10,
      signup: 'open',
      allowedDomains: [],
      storageQuotaMb: 1024,
      apiAccess: true,
      publicSharing: true,
      memory: true,
      memberBots: false,
      memberBotTools: [],
      // No image generation until an admin sets it up.
      images: null,
      search: null,
      // Voice is not configured until the admins name a model.
      speech: {
        transcriptionModel: null,
        speechModel: null,
        voices: [],
        provider: null,
        transcriptionPrice: 0,
        speechPrice: 0,
      },
      // Parley's guide, the knowledge base every organization starts with.
      storageBytes: readdirSync(guide).reduce((sum, name) => sum + statSync(join(guide, name)).size, 0),
    });
    const lookup = await call(server, '/api/v1/organization/acme');
    expect(lookup.body).toEqual({
      _id: expect.any(String),
      subdomain: 'acme',
      name: 'Acme Corporation',
      currency: 'EUR',
      brandColor: null,
      logo: null,
      defaultLanguage: 'en',
      sso: null,
      // No translation provider is configured: the chat offers no message translation.
      messageTranslation: false,
      memory: true,
      memberBots: false,
      images: false,
      webSearch: false,
      voice: { transcription: false, speech: false, voices: [] },
    });
  });

  it('tells the app, in the public record, when the organization has memory off', async () => {
    // Personalization explains the "Use memory" switch instead of offering it.
    await server.app.db.query(`update organizations set memory = false where subdomain = 'acme'`);
    try {
      expect((await call(server, '/api/v1/organization/acme')).body).toMatchObject({ memory: false });
    } finally {
      await server.app.db.query(`update organizations set memory = true where subdomain = 'acme'`);
    }
  });

  it('checks the brand colour’s contrast against white, and other fields, naming the field', async () => {
    const pale = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { brandColor: '#ffcc00' },
    });
    expect(pale).toMatchObject({ status: 400, body: { field: 'brandColor', code: 'LOW_CONTRAST' } });
    expect(
      (await admin(server, owner, '/settings', { method: 'PATCH', body: { brandColor: 'blue' } })).body.field,
    ).toBe('brandColor');
    for (const [body, field] of [
      [{ defaultLanguage: 'xx' }, 'defaultLanguage'],
      [{ currency: 'ABC' }, 'currency'],
      [{ currency: 'eur' }, 'currency'],
      [{ startingBalance: -1 }, 'startingBalance'],
      [{ signup: 'domains', allowedDomains: [] }, 'allowedDomains'],
      [{ allowedDomains: ['not a domain'] }, 'allowedDomains'],
      [{ logo: { type: 'image/gif', data: 'R0lGOD' } }, 'logo'],
      [{ memory: 'off' }, 'memory'],
    ] as const) {
      const answer = await admin(server, owner, '/settings', { method: 'PATCH', body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ field, error: expect.any(String) });
    }
    const changed = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: {
        name: owner.encrypt('Acme Inc.'),
        brandColor: '#1D4ED8',
        defaultLanguage: 'de',
        currency: 'USD',
      },
    });
    expect(changed.body).toMatchObject({
      name: 'Acme Inc.',
      brandColor: '#1d4ed8',
      defaultLanguage: 'de',
      currency: 'USD',
    });
    expect((await call(server, '/api/v1/organization/acme')).body).toMatchObject({
      name: 'Acme Inc.',
      brandColor: '#1d4ed8',
      defaultLanguage: 'de',
    });
  });

  it('stores a PNG logo up to 100 KB and serves it with a safe content type', async () => {
    const stored = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { logo: { type: 'image/png', data: png.toString('base64') } },
    });
    expect(stored.body.logo).toMatch(/^\/api\/v1\/organization\/acme\/logo\?v=[0-9a-f]{12}$/);
    const served = await fetch(`${server.url}${stored.body.logo}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect((await call(server, '/api/v1/organization/acme')).body.logo).toBe(stored.body.logo);

    const notPng = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { logo: { type: 'image/png', data: Buffer.from(svg).toString('base64') } },
    });
    expect(notPng.body.field).toBe('logo');
    const big = Buffer.concat([png, Buffer.alloc(100 * 1024)]);
    const tooBig = await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { logo: { type: 'image/png', data: big.toString('base64') } },
    });
    expect(tooBig).toMatchObject({ status: 400, body: { field: 'logo' } });
    const removed = await admin(server, owner, '/settings', { method: 'PATCH', body: { logo: null } });
    expect(removed.body.logo).toBeNull();
    expect((await fetch(`${server.url}/api/v1/organization/acme/logo`)).status).toBe(404);
  });

  it('draws an SVG logo as a PNG: nothing in it runs or reaches outside the file, whatever its spelling', async () => {
    // Whatever an SVG asks to load would come here.
    const asked: string[] = [];
    const spy = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
    const outside = `http://127.0.0.1:${(spy.address() as AddressInfo).port}`;
    const open = (inner: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123456"/>${inner}</svg>`;
    /** The logo stored for `file`: null when refused, else the PNG served. */
    const upload = async (file: string) => {
      const answer = await admin(server, owner, '/settings', {
        method: 'PATCH',
        body: { logo: { type: 'image/svg+xml', data: Buffer.from(file).toString('base64') } },
      });
      if (answer.status === 400) {
        expect(answer.body.field).toBe('logo');
        return null;
      }
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const served = await fetch(`${server.url}${answer.body.logo}`);
      expect(served.headers.get('content-type')).toBe('image/png');
      return Buffer.from(await served.arrayBuffer());
    };
    try {
      // A plain logo is drawn at 512 px, in its colours.
      const drawn = await upload(svg);
      const { data, info } = await sharp(drawn ?? Buffer.alloc(0))
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([512, 512]);
      expect([...data.subarray(0, 3)]).toEqual([0x12, 0x34, 0x56]);

      const hostile = [
        // What slipped through the filter: a namespaced script, CSS escapes, image-set().
        open('<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(document.domain)</svg:script>'),
        open(`<rect width="10" height="10" style="fill: u\\72l(${outside}/escaped-url#x)"/>`),
        open(`<style>rect { fill: image-set("${outside}/image-set" 1x) }</style>`),
        open(`<style>@\\69mport "${outside}/escaped-import";</style>`),
        // The classics.
        open('<script>alert(1)</script>'),
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" viewBox="0 0 10 10"/>',
        open('<foreignObject width="10" height="10"><iframe src="javascript:alert(1)"/></foreignObject>'),
        open(`<image xlink:href="${outside}/xlink" width="10" height="10"/>`),
        open(`<image href="${outside}/href" width="10" height="10"/><use href="${outside}/use#a"/>`),
        open(`<style>@import url(${outside}/import);</style>`),
        `<!DOCTYPE svg [<!ENTITY e SYSTEM "${outside}/entity">]>${open('<text>&e;</text>')}`,
        `<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>${open('<text>&e;</text>')}`,
        `<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>${open('<text>&h;</text>')}`,
        '<html><body>not svg</body></html>',
      ];
      for (const file of hostile) {
        const stored = await upload(file);
        // Refused, or drawn: a PNG, in which nothing of the file is left to run.
        if (stored) {
          expect([file, (await sharp(stored).metadata()).format]).toEqual([file, 'png']);
          expect(stored.toString('latin1')).not.toMatch(/script|alert|import|href|127\.0\.0\.1/i);
        }
      }
      expect(asked).toEqual([]);

      // An SVG logo stored before logos were drawn is drawn when first asked for, and kept so.
      await server.app.db.query(
        `update organizations set logo = $1, logo_type = 'image/svg+xml', logo_version = 'legacy' where subdomain = 'acme'`,
        [Buffer.from(hostile[0]).toString('base64')],
      );
      const legacy = await fetch(`${server.url}/api/v1/organization/acme/logo?v=legacy`);
      expect(legacy.headers.get('content-type')).toBe('image/png');
      expect((await sharp(Buffer.from(await legacy.arrayBuffer())).metadata()).format).toBe('png');
      const kept = await server.app.db.query<{ logo_type: string }>(
        `select logo_type from organizations where subdomain = 'acme'`,
      );
      expect(kept.rows[0].logo_type).toBe('image/png');
      expect((await call(server, '/api/v1/organization/acme')).body.logo).toMatch(/\?v=[0-9a-f]{12}$/);
    } finally {
      spy.close();
      await admin(server, owner, '/settings', { method: 'PATCH', body: { logo: null } });
    }
  });

  it('applies the sign-up policy and the starting balance to new members', async () => {
    const encrypt = await encrypter(server);
    await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { signup: 'invite', startingBalance: 3 },
    });
    const refused = await call(server, '/auth/otp', {
      tenant: 'acme',
      body: { email: encrypt('walkin@example.org') },
    });
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'INVITE_ONLY', error: expect.stringMatching(/invitation/) },
    });

    const email = `guest${Date.now().toString(36)}@example.org`;
    await admin(server, owner, '/member/invite', { body: { email: owner.encrypt(email), role: 'member' } });
    const guest = await signUp(server, 'acme', { email });
    const billing = await call(server, `/payment/billing-info/${guest.id}`, {
      token: guest.token,
      tenant: 'acme',
    });
    expect(billing.body).toMatchObject({ balance: 3, currency: 'USD' });

    await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { signup: 'domains', allowedDomains: ['Acme.example'] },
    });
    const outsider = await call(server, '/auth/otp', {
      tenant: 'acme',
      body: { email: encrypt('x@other.example') },
    });
    expect(outsider).toMatchObject({ status: 403, body: { code: 'DOMAIN_NOT_ALLOWED', field: 'email' } });
    const insider = await signUp(server, 'acme', { email: `staff${Date.now().toString(36)}@acme.example` });
    expect(insider.id).toBeTruthy();
    // A code asked before the policy changed cannot sign up past it.
    await admin(server, owner, '/settings', { method: 'PATCH', body: { signup: 'open' } });
    const late = `late${Date.now().toString(36)}@elsewhere.example`;
    await call(server, '/auth/otp', { tenant: 'acme', body: { email: encrypt(late) } });
    const otp = await readCode(server.dataDir, late);
    await admin(server, owner, '/settings', { method: 'PATCH', body: { signup: 'invite' } });
    const blocked = await call(server, '/auth/signup', {
      tenant: 'acme',
      body: {
        email: encrypt(late),
        password: encrypt('correct horse battery'),
        username: 'latecomer',
        displayName: 'Late',
        otp,
      },
    });
    expect(blocked.status).toBe(403);
    await admin(server, owner, '/settings', {
      method: 'PATCH',
      body: { signup: 'open', startingBalance: null },
    });
  });

  it('a disabled organization is not found, refuses logins and requests, and keeps its data', async () => {
    const user = await signUp(server, 'acme');
    expect(await setDisabled(server.app.db, 'acme', true)).toBe(true);
    expect((await call(server, '/api/v1/organization/acme')).status).toBe(404);
    const loginAnswer = await call(server, '/auth/login', {
      tenant: 'acme',
      body: { email: user.encrypt(user.email), password: user.encrypt(user.password) },
    });
    expect(loginAnswer).toMatchObject({ status: 403, body: { code: 'ORGANIZATION_DISABLED' } });
    expect((await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' })).status).toBe(403);
    expect((await admin(server, owner, '/settings')).status).toBe(403);
    // By host name too.
    expect(
      (await call(server, '/api/v1/bot', { token: user.token, host: 'acme.parley.localhost' })).status,
    ).toBe(403);
    expect(await setDisabled(server.app.db, 'acme', false)).toBe(true);
    expect((await call(server, '/api/v1/bot', { token: user.token, tenant: 'acme' })).status).toBe(200);
    const again = await login(server, 'acme', user.email, user.password);
    expect((await call(server, '/api/v1/user/me', { token: again.token, tenant: 'acme' })).body._id).toBe(
      user.id,
    );
  });
});
