import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, type TestServer } from '../../support/app';
import { type Nodes, startTwoNodes } from '../../support/nodes';
import { download, makePdf, photoWithExif, upload } from './support';

/** Files live in the database: two nodes on one PostgreSQL, no disk state of their own. */
describe('files across nodes sharing a PostgreSQL', () => {
  let nodes: Nodes;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    nodes = await startTwoNodes();
    ({ a, b } = nodes);
  }, 90_000);
  afterAll(async () => {
    await nodes?.stop();
  });

  it('reads on one node what another stored, shares the same bytes once, and deletes from either', async () => {
    const user = await signUp(a);
    const pdf = await makePdf(4, { text: 'Stored on node a' });
    const stored = await upload(a, user, pdf, 'report.pdf', 'application/pdf');
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({ type: 'application/pdf', pages: 4, size: pdf.length });
    expect((await call(b, `/api/v1/file/${stored.body._id}`, { token: user.token })).body).toEqual(
      stored.body,
    );
    expect((await download(b, user, stored.body._id)).bytes.equals(pdf)).toBe(true);

    const photo = await upload(a, user, await photoWithExif(640, 480), 'photo.jpg', 'image/jpeg');
    const thumbnail = await download(b, user, photo.body._id, '?thumbnail=1');
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect((await download(b, user, photo.body._id)).bytes.length).toBe(photo.body.size);

    // The same bytes through the other node: a second file, one blob.
    const again = await upload(b, user, pdf, 'copy.pdf', 'application/pdf');
    expect(again.status).toBe(201);
    const { rows } = await a.app.db.query<{ count: string }>(
      "select count(*) from file_blobs where tenant = 'app' and size = $1",
      [pdf.length],
    );
    expect(Number(rows[0].count)).toBe(1);
    expect(
      (await call(b, `/api/v1/file/${stored.body._id}`, { method: 'DELETE', token: user.token })).status,
    ).toBe(200);
    expect((await call(a, `/api/v1/file/${stored.body._id}`, { token: user.token })).status).toBe(404);
    expect((await download(a, user, again.body._id)).bytes.equals(pdf)).toBe(true);
  });
});
