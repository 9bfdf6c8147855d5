import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp, startApp, type TestServer } from '../../support/app';
import { docxBomb, download, makeDocx, makePdf, photoWithExif, upload } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await startApp();
});
afterAll(() => server?.close());

it('smoke', async () => {
  const user = await signUp(server);
  const pdf = await makePdf(3, { text: 'Hello pdf' });
  console.log(await upload(server, user, pdf, 'a.pdf'));
  console.log(await upload(server, user, await makeDocx(['Hello docx', 'line 2']), 'a.docx'));
  console.log(await upload(server, user, docxBomb(), 'bomb.docx'));
  const photo = await upload(server, user, await photoWithExif(), 'p.jpg');
  console.log(photo);
  const d = await download(server, user, photo.body._id);
  console.log(d.status, Object.fromEntries(d.headers), d.bytes.length);
  const t = await download(server, user, photo.body._id, '?thumbnail=1');
  console.log(t.status, Object.fromEntries(t.headers), t.bytes.length);
  console.log(await upload(server, user, Buffer.from('hello'), 'a.txt'));
  expect(1).toBe(1);
});
