import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { loginOwner } from '../admin/support';
import { docxBomb, download, gifBomb, makeDocx, makePdf, photoWithExif, png, upload } from './support';

type User = Awaited<ReturnType<typeof signUp>>;

/** What each hostile upload was answered and how long it took: printed for the record. */
const timings: { file: string; status: number; ms: number }[] = [];
afterAll(() => console.table(timings.map(({ file, status, ms }) => ({ file, status, ms: Math.round(ms) }))));

describe('uploads: types sniffed from the bytes, documents read under limits, images without metadata', () => {
  let server: TestServer;
  let user: User;

  beforeAll(async () => {
    server = await startApp();
    user = await signUp(server);
  });
  afterAll(() => server?.close());

  const storage = async () => {
    const owner = await loginOwner(server, 'app');
    return (await call(server, '/api/v1/admin/settings', { token: owner.token, tenant: 'app' })).body
      .storageBytes as number;
  };
  const myFiles = async (who: User = user) =>
    (await call(server, '/api/v1/user/me/export', { token: who.token })).body.files as { _id: string }[];

  it('takes a PDF, reads its pages and text, and answers its metadata to its owner', async () => {
    const bytes = await makePdf(3, { text: 'Quarterly report: revenue grew' });
    const sent = await upload(server, user, bytes, 'report.pdf', 'application/pdf');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      name: 'report.pdf',
      type: 'application/pdf',
      size: bytes.length,
      pages: 3,
    });
    expect(sent.body.status).toBe('ready');
    const read = await call(server, `/api/v1/file/${sent.body._id}`, { token: user.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(sent.body);
    const content = await download(server, user, sent.body._id);
    expect(content.bytes.equals(bytes)).toBe(true);
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect(content.headers.get('content-disposition')).toMatch(/^attachment; filename="report.pdf"/);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });

  it('takes a DOCX, text, Markdown, CSV, JSON and source code, whatever name or type the client claims', async () => {
    const cases: [Uint8Array, string, string, string][] = [
      [
        await makeDocx(['Minutes', 'Decided: ship it']),
        'minutes.bin',
        'application/octet-stream',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      [Buffer.from('just some notes\n'), 'notes.txt', 'text/plain', 'text/plain'],
      [Buffer.from('# Title\n\n- a list\n'), 'README.md', 'text/markdown', 'text/plain'],
      [Buffer.from('name,score\nada,10\n'), 'scores.csv', 'text/csv', 'text/plain'],
      [Buffer.from('{"answer": 42}'), 'data.json', 'image/png', 'application/json'],
      [Buffer.from('export const x = (a: number) => a * 2;\n'), 'x.ts', 'video/mp2t', 'text/plain'],
      [Buffer.from('Grüße, 日本語 ✓\n'), 'unicode.txt', 'text/plain', 'text/plain'],
    ];
    for (const [bytes, name, claimed, type] of cases) {
      const sent = await upload(server, user, bytes, name, claimed);
      expect(sent.status, name).toBe(201);
      expect(sent.body.type, name).toBe(type);
    }
  });

  it('refuses what it does not accept with 415 naming what it does: SVG, HTML, executables, archives', async () => {
    const refused: [Uint8Array, string][] = [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg'],
      [Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image.png'],
      [Buffer.from('<!DOCTYPE html><html><script>alert(document.cookie)</script></html>'), 'page.txt'],
      [Buffer.from('  <html><body onload="alert(1)"></body></html>'), 'notes.md'],
      [Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(4000)]), 'elf.pdf'],
      [Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), randomBytes(4000)]), 'setup.pdf'],
      [randomBytes(5000), 'random.txt'],
      [await gzip(), 'archive.docx'],
    ];
    for (const [bytes, name] of refused) {
      const sent = await upload(server, user, bytes, name, 'application/pdf');
      timings.push({ file: name, status: sent.status, ms: sent.ms });
      expect(sent.status, name).toBe(415);
      expect(sent.body.code, name).toBe('UNSUPPORTED_TYPE');
      expect(sent.body.error, name).toContain('Accepted: images (PNG, JPEG, WebP, GIF), PDF');
    }
  });

  it('serves text that contains markup only as a sandboxed plain-text attachment', async () => {
    const bytes = Buffer.from('<p align="center">Hello</p>\n<script>alert(document.cookie)</script>\n');
    const sent = await upload(server, user, bytes, 'page.html', 'text/html');
    expect(sent.status).toBe(201);
    expect(sent.body.type).toBe('text/plain');
    const content = await download(server, user, sent.body._id);
    expect(content.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(content.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(content.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers every broken or hostile file with a clear 4xx within seconds, keeps nothing of it, and stays up', async () => {
    const before = await storage();
    const filesBefore = (await myFiles()).length;
    const good = await makePdf(2);
    const wholePng = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    const truncatedPng = wholePng.subarray(0, Math.floor(wholePng.length * 0.6));
    const broken: [Uint8Array, string, number, string, RegExp][] = [
      [Buffer.alloc(0), 'empty.pdf', 422, 'UNREADABLE', /empty/],
      [good.subarray(0, Math.floor(good.length / 2)), 'truncated.pdf', 422, 'UNREADABLE', /cut short/],
      [
        Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(20_000), Buffer.from('\n%%EOF\n')]),
        'garbage.pdf',
        422,
        'UNREADABLE',
        /damaged/,
      ],
      [await makePdf(1, { userPassword: 'secret' }), 'encrypted.pdf', 422, 'UNREADABLE', /encrypted/],
      [docxBomb(200), 'bomb.docx', 413, 'FILE_TOO_LARGE', /unpacks to more than 100 MB/],
      [await makePdf(5000), 'pages-5000.pdf', 413, 'FILE_TOO_LARGE', /5000 pages; at most 1000/],
      [truncatedPng, 'truncated.png', 422, 'UNREADABLE', /image is damaged/],
    ];
    for (const [bytes, name, status, code, reason] of broken) {
      const sent = await upload(server, user, bytes, name, 'application/pdf');
      timings.push({ file: name, status: sent.status, ms: sent.ms });
      expect(sent.status, name).toBe(status);
      expect(sent.body.code, name).toBe(code);
      expect(sent.body.error, name).toMatch(reason);
      expect(sent.ms, name).toBeLessThan(5000);
      // Still answering, at once.
      expect((await call(server, '/health')).status).toBe(200);
    }
    expect(await storage()).toBe(before);
    expect((await myFiles()).length).toBe(filesBefore);
  });

  it('takes a file just under UPLOAD_MAX_BYTES whole', async () => {
    const line = 'a line of a long log file, 40 bytes...\n';
    const bytes = Buffer.from(line.repeat(Math.floor((20 * 1024 * 1024 - 1024) / line.length)));
    const sent = await upload(server, user, bytes, 'big.log', 'text/plain');
    timings.push({ file: `big.log (${bytes.length} B), accepted`, status: sent.status, ms: sent.ms });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ type: 'text/plain', size: bytes.length });
    expect((await download(server, user, sent.body._id)).bytes.equals(bytes)).toBe(true);
    await call(server, `/api/v1/file/${sent.body._id}`, { method: 'DELETE', token: user.token });
  });

  it('refuses a file over UPLOAD_MAX_BYTES with 413 and a pixel bomb of an image with 413', async () => {
    const huge = await upload(server, user, randomBytes(21 * 1024 * 1024), 'huge.txt', 'text/plain');
    timings.push({ file: 'huge.txt (21 MB)', status: huge.status, ms: huge.ms });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 'FILE_TOO_LARGE', error: 'The file is larger than 20 MB.' });
    // 10,000 × 10,000 pixels of one colour: a few KB of PNG.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const sent = await upload(server, user, bomb, 'bomb.png', 'image/png');
    timings.push({ file: `pixel bomb (${bomb.length} B)`, status: sent.status, ms: sent.ms });
    expect(sent.status).toBe(413);
    expect(sent.body.error).toMatch(/more than 50 million pixels/);
  });

  it('strips an image’s EXIF metadata, serves it inline, and makes a WebP thumbnail', async () => {
    const photo = await photoWithExif(1200, 900);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const sent = await upload(server, user, photo, 'holiday.jpg', 'image/jpeg');
    expect(sent.status).toBe(201);
    expect(sent.body.type).toBe('image/jpeg');
    const content = await download(server, user, sent.body._id);
    expect(content.headers.get('content-type')).toBe('image/jpeg');
    expect(content.headers.get('content-disposition')).toMatch(/^inline; filename="holiday.jpg"/);
    expect(content.bytes.length).toBe(sent.body.size);
    const stored = await sharp(content.bytes).metadata();
    expect(stored.exif).toBeUndefined();
    expect(content.bytes.includes(Buffer.from('Secret Location Inc'))).toBe(false);
    expect([stored.width, stored.height]).toEqual([1200, 900]);
    const thumbnail = await download(server, user, sent.body._id, '?thumbnail=1');
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    const small = await sharp(thumbnail.bytes).metadata();
    expect(small.format).toBe('webp');
    expect(Math.max(small.width ?? 0, small.height ?? 0)).toBe(320);
    // A document has no thumbnail.
    const text = await upload(server, user, Buffer.from('no picture here'), 'a.txt');
    expect((await download(server, user, text.body._id, '?thumbnail=1')).status).toBe(404);
  });

  it('takes PNG, WebP and GIF as images too', async () => {
    const base = sharp(await png(40, 30));
    for (const [bytes, type] of [
      [await png(40, 30), 'image/png'],
      [await base.clone().webp().toBuffer(), 'image/webp'],
      [await base.clone().gif().toBuffer(), 'image/gif'],
    ] as const) {
      const sent = await upload(server, user, bytes, 'picture', 'application/octet-stream');
      expect(sent.status, type).toBe(201);
      expect(sent.body.type, type).toBe(type);
    }
  });

  it('counts an animation’s frames × canvas before decoding it: the review’s 1 KB GIF of 49 × 1000×1000 is 413 at once, a small animation stays animated', async () => {
    const bomb = gifBomb(49, 1000);
    const sent = await upload(server, user, bomb, 'bomb.gif', 'image/gif');
    timings.push({
      file: `animated GIF, 49 frames of 1000×1000 (${bomb.length} B)`,
      status: sent.status,
      ms: sent.ms,
    });
    expect(sent.status).toBe(413);
    expect(sent.body).toEqual({
      code: 'FILE_TOO_LARGE',
      error:
        'The animation has 49 frames of 1000×1000 pixels; at most 10 million pixels over all its frames are accepted.',
    });
    expect(sent.ms).toBeLessThan(5000);
    const small = await upload(server, user, gifBomb(4, 200), 'small.gif', 'image/gif');
    expect(small.status).toBe(201);
    expect((await sharp((await download(server, user, small.body._id)).bytes).metadata()).pages).toBe(4);
    expect((await download(server, user, small.body._id, '?thumbnail=1')).status).toBe(200);
  });

  it('keeps one member’s uploads from starving another’s: six of the heaviest GIFs accepted in flight, a 16×16 PNG within 3 s (or 4× its time alone)', async () => {
    const [flooder, other] = [await signUp(server), await signUp(server)];
    // New bytes each time, so that none is deduplicated away.
    const tiny = (red: number) =>
      sharp({ create: { width: 16, height: 16, channels: 3, background: { r: red, g: 9, b: 9 } } })
        .png()
        .toBuffer();
    const alone = await upload(server, other, await tiny(1), 'alone.png', 'image/png');
    expect(alone.status).toBe(201);
    // The review's GIF cut to the animation limit: 10 frames of (up to) 1000×1000, each about a second of work.
    let lastGif = 0;
    const flood = Array.from({ length: 6 }, (_, n) =>
      upload(server, flooder, gifBomb(10, 1000 - n), `flood-${n}.gif`, 'image/gif').then((answer) => {
        lastGif = performance.now();
        return answer;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = await upload(server, other, await tiny(2), 'during.png', 'image/png');
    const answered = performance.now();
    const flooded = await Promise.all(flood);
    timings.push(
      { file: '16×16 PNG alone', status: alone.status, ms: alone.ms },
      { file: '16×16 PNG beside six 10-frame GIFs', status: during.status, ms: during.ms },
      ...flooded.map((gif, n) => ({
        file: `GIF ${n + 1} of six, 10 frames`,
        status: gif.status,
        ms: gif.ms,
      })),
    );
    expect(during.status).toBe(201);
    expect(during.ms).toBeLessThan(Math.max(3000, 4 * alone.ms));
    // The GIFs were still in flight when the PNG was answered, and each was taken in its turn.
    expect(answered).toBeLessThan(lastGif);
    expect(flooded.map((gif) => gif.status)).toEqual([201, 201, 201, 201, 201, 201]);
  });

  it('stores the same bytes once, however often and by whom they are uploaded, and deletes them with the last file', async () => {
    const other = await signUp(server);
    const bytes = await makePdf(1, { text: `shared ${Date.now()}` });
    const before = await storage();
    const first = await upload(server, user, bytes, 'one.pdf');
    const second = await upload(server, user, bytes, 'two.pdf');
    const third = await upload(server, other, bytes, 'three.pdf');
    expect([first.status, second.status, third.status]).toEqual([201, 201, 201]);
    expect(new Set([first.body._id, second.body._id, third.body._id]).size).toBe(3);
    expect(await storage()).toBe(before + bytes.length);
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const blobs = async () =>
      Number(
        (
          await server.app.db.query<{ count: string }>('select count(*) from file_blobs where sha256 = $1', [
            sha256,
          ])
        ).rows[0].count,
      );
    expect(await blobs()).toBe(1);
    expect(
      (await call(server, `/api/v1/file/${first.body._id}`, { method: 'DELETE', token: user.token })).status,
    ).toBe(200);
    expect((await call(server, `/api/v1/file/${first.body._id}`, { token: user.token })).status).toBe(404);
    expect((await download(server, user, second.body._id)).bytes.equals(bytes)).toBe(true);
    await call(server, `/api/v1/file/${second.body._id}`, { method: 'DELETE', token: user.token });
    expect(await blobs()).toBe(1);
    await call(server, `/api/v1/file/${third.body._id}`, { method: 'DELETE', token: other.token });
    expect(await blobs()).toBe(0);
    expect(await storage()).toBe(before);
  });

  it('asks for multipart with the field "file"', async () => {
    const json = await call(server, '/api/v1/file', { token: user.token, body: { file: 'hello' } });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('INVALID_MEDIA_TYPE');
    const wrongField = await upload(server, user, Buffer.from('hi'), 'a.txt', 'text/plain', 'attachment');
    expect(wrongField.status).toBe(400);
    expect(wrongField.body).toMatchObject({ code: 'INVALID_INPUT', field: 'file' });
    const anonymous = await upload(server, { token: 'nope' }, Buffer.from('hi'), 'a.txt');
    expect(anonymous.status).toBe(401);
  });
});

describe('the limits an organization and the server set', () => {
  let server: TestServer;
  let frugal: TestServer;

  beforeAll(async () => {
    // Readings past two seconds are ended: 5,000 pages take about five.
    server = await startApp({ EXTRACT_TIMEOUT_SECONDS: '2', UPLOAD_MAX_PAGES: '100000' });
    // A reading of 48 MB reads a short PDF (15 to 25 MB with pdf.js's code), not 5,000 pages (about 90).
    frugal = await startApp({ EXTRACT_MEMORY_MB: '48', UPLOAD_MAX_PAGES: '100000' });
  });
  afterAll(async () => {
    await server?.close();
    await frugal?.close();
  });

  it('ends a reading past the time limit with 422, and the server goes on', async () => {
    const user = await signUp(server);
    // A reading's process starts before its time counts: a small file measures that on this machine.
    const small = await upload(server, user, await makePdf(1), 'one.pdf', 'application/pdf');
    expect(small.status).toBe(201);
    const sent = await upload(server, user, await makePdf(5000), 'long.pdf', 'application/pdf');
    timings.push({ file: 'pages-5000.pdf, 2 s limit', status: sent.status, ms: sent.ms });
    expect(sent.status).toBe(422);
    expect(sent.body).toMatchObject({ code: 'UNREADABLE' });
    expect(sent.body.error).toMatch(/within 2 seconds/);
    // Ended at its limit, not when its 5,000 pages were read (about five seconds alone).
    expect(sent.ms).toBeLessThan(small.ms + 2000 + 1500);
    expect((await upload(server, user, Buffer.from('still here'), 'after.txt')).status).toBe(201);
  });

  it('ends a reading past the memory limit with 422, and the server goes on', async () => {
    const user = await signUp(frugal);
    const sent = await upload(frugal, user, await makePdf(5000), 'long.pdf', 'application/pdf');
    timings.push({ file: 'pages-5000.pdf, 48 MB reading', status: sent.status, ms: sent.ms });
    expect(sent.status).toBe(422);
    expect(sent.body).toEqual({
      error: 'The file needs too much memory to read: it is not accepted.',
      code: 'UNREADABLE',
    });
    const short = await upload(frugal, user, await makePdf(2), 'short.pdf', 'application/pdf');
    expect(short.body).toMatchObject({ type: 'application/pdf', pages: 2 });
  });

  it("refuses an upload past the organization's storage quota with 413 QUOTA_EXCEEDED; the same bytes again cost nothing", async () => {
    const owner = await loginOwner(server, 'acme');
    const quota = await call(server, '/api/v1/admin/settings', {
      method: 'PATCH',
      tenant: 'acme',
      token: owner.token,
      body: { storageQuotaMb: 1 },
    });
    expect(quota.status).toBe(200);
    // The organization starts with the Librarian's guide, counted like any file.
    expect(quota.body).toMatchObject({ storageQuotaMb: 1 });
    const guide = quota.body.storageBytes;
    const user = await signUp(server, 'acme');
    const first = Buffer.from(randomBytes(450 * 1024).toString('base64'));
    const sent = await upload(server, user, first, 'first.txt');
    expect(sent.status).toBe(201);
    expect((await upload(server, user, first, 'again.txt')).status).toBe(201);
    const over = await upload(
      server,
      user,
      Buffer.from(randomBytes(450 * 1024).toString('base64')),
      'second.txt',
    );
    expect(over.status).toBe(413);
    expect(over.body.code).toBe('QUOTA_EXCEEDED');
    expect(over.body.error).toMatch(/storage for files \(1 MB\) is full/);
    const usage = await call(server, '/api/v1/admin/usage', { tenant: 'acme', token: owner.token });
    expect(usage.body).toMatchObject({ storageBytes: guide + first.length, storageQuotaMb: 1 });
    // Another organization has its own quota.
    const elsewhere = await signUp(server, 'app');
    expect((await upload(server, elsewhere, first, 'first.txt', 'text/plain')).status).toBe(201);
  });
});

async function gzip(): Promise<Buffer> {
  const { gzipSync } = await import('node:zlib');
  return gzipSync(Buffer.from('not a word document'));
}
