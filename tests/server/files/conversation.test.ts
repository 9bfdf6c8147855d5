import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../../support/app';
import {
  type ContentPart,
  imagesOf,
  type OpenAiDouble,
  startOpenAiDouble,
  textOf,
} from '../../support/openai-double';
import { readEvents } from '../../support/sse';
import { admin, loginOwner } from '../admin/support';
import { download, makeDocx, png, readZip, upload } from './support';

type User = Awaited<ReturnType<typeof signUp>>;

describe('files in conversations: what model bots receive, and what deleting takes with it', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let bots: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url });
    const owner = await loginOwner(server, 'app');
    const list = await admin(server, owner, '/bot');
    bots = Object.fromEntries(list.body.map((bot: { name: string; _id: string }) => [bot.name, bot._id]));
    // The Assistant sees images; the Code Helper does not, and reads little (300 tokens).
    const vision = await admin(server, owner, `/bot/${bots.Assistant}`, {
      method: 'PATCH',
      body: { vision: true },
    });
    expect(vision.body).toMatchObject({ vision: true, contextTokens: 8000 });
    const small = await admin(server, owner, `/bot/${bots['Code Helper']}`, {
      method: 'PATCH',
      body: { contextTokens: 300 },
    });
    expect(small.body).toMatchObject({ vision: false, contextTokens: 300 });
    const builtin = await admin(server, owner, `/bot/${bots.ELIZA}`, {
      method: 'PATCH',
      body: { vision: true },
    });
    expect(builtin.body).toEqual({
      error: 'A built-in bot cannot see images.',
      code: 'INVALID_INPUT',
      field: 'vision',
    });
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  const newTopic = async (user: User, bot: string) => {
    const answer = await call(server, '/api/v1/topic', { token: user.token, body: { bot: bots[bot] } });
    expect(answer.status).toBe(201);
    return answer.body._id as string;
  };
  /** Sends a message as the web app does; a refusal is JSON, a reply is a stream read to its end. */
  const send = async (user: User, topic: string, body: { text: string; files?: string[] }) => {
    const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify(body),
    });
    if (!response.headers.get('content-type')?.includes('text/event-stream'))
      return { status: response.status, body: (await response.json()) as Json, events: [] };
    const events = await readEvents(response);
    return { status: response.status, body: null, events };
  };
  const balance = async (user: User) =>
    (await call(server, `/payment/billing-info/${user.id}`, { token: user.token })).body.balance as number;
  const lastAsked = () => model.requests.at(-1)?.messages.at(-1);
  const topicOf = async (user: User, topic: string) =>
    (await call(server, `/api/v1/topic/${topic}`, { token: user.token })).body;
  const blobCount = async () =>
    Number((await server.app.db.query<{ count: string }>('select count(*) from file_blobs')).rows[0].count);

  it('gives a vision bot the image as an image_url data URL, and the message carries the file', async () => {
    const user = await signUp(server);
    const listed = await call(server, '/api/v1/bot', { token: user.token });
    const vision = Object.fromEntries(
      listed.body.map((bot: { name: string; vision: boolean }) => [bot.name, bot.vision]),
    );
    expect(vision).toMatchObject({ Assistant: true, 'Code Helper': false, ELIZA: false });
    const picture = await png(64, 48);
    const sent = await upload(server, user, picture, 'chart.png', 'image/png');
    const topic = await newTopic(user, 'Assistant');
    const asked = await send(user, topic, { text: 'What is in this picture?', files: [sent.body._id] });
    expect(asked.events.at(-1)?.event).toBe('done');
    const message = lastAsked();
    expect(Array.isArray(message?.content)).toBe(true);
    expect(textOf(message?.content)).toBe('What is in this picture?');
    const stored = (await download(server, user, sent.body._id)).bytes;
    expect(imagesOf(message?.content)).toEqual([`data:image/png;base64,${stored.toString('base64')}`]);
    expect((message?.content as ContentPart[] | undefined)?.[0]).toEqual({
      type: 'text',
      text: 'What is in this picture?',
    });
    const { messages } = await topicOf(user, topic);
    expect(messages[0].files).toEqual([
      { _id: sent.body._id, name: 'chart.png', type: 'image/png', size: sent.body.size },
    ]);
    // The next turn still shows the model the image, in the history.
    await send(user, topic, { text: 'And its colours?' });
    const history = model.requests.at(-1)?.messages ?? [];
    expect(
      imagesOf(history.find((turn) => textOf(turn.content) === 'What is in this picture?')?.content),
    ).toHaveLength(1);
  });

  it('refuses an image for a bot without vision before anything is reserved: the balance is unchanged', async () => {
    const user = await signUp(server);
    const sent = await upload(server, user, await png(20, 20), 'photo.png', 'image/png');
    const topic = await newTopic(user, 'Code Helper');
    const before = await balance(user);
    const requests = model.requests.length;
    const refused = await send(user, topic, { text: 'Look at this', files: [sent.body._id] });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      error: 'Code Helper cannot see images. Remove the image, or ask a bot that can see images.',
      code: 'VISION_UNSUPPORTED',
      field: 'files',
    });
    expect(await balance(user)).toBe(before);
    expect(model.requests.length).toBe(requests);
    expect((await topicOf(user, topic)).messages).toEqual([]);
    // ELIZA, a built-in bot, cannot see either.
    const eliza = await newTopic(user, 'ELIZA');
    expect((await send(user, eliza, { text: 'Look', files: [sent.body._id] })).status).toBe(422);
  });

  it("gives a model bot a document's text, and only the beginning that fits its context, marked truncated", async () => {
    const user = await signUp(server);
    const docx = await upload(
      server,
      user,
      await makeDocx(['Minutes of the board', 'We decided to ship on Friday.']),
      'minutes.docx',
    );
    const topic = await newTopic(user, 'Assistant');
    await send(user, topic, { text: 'Summarise this', files: [docx.body._id] });
    const content = lastAsked()?.content;
    expect(typeof content).toBe('string');
    expect(content).toContain('Summarise this');
    expect(content).toContain(
      '<attached-file name="minutes.docx" type="application/vnd.openxmlformats-officedocument.wordprocessingml.document">',
    );
    expect(content).toContain('We decided to ship on Friday.');
    expect(content).not.toContain('truncated');
    // Regenerating the reply gives the model the document again.
    const { messages } = await topicOf(user, topic);
    const reply = messages.find((message: { role: string }) => message.role === 'bot');
    const again = await fetch(`${server.url}/api/v1/topic/${topic}/message/${reply._id}/regenerate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect((await readEvents(again)).at(-1)?.event).toBe('done');
    expect(textOf(lastAsked()?.content)).toContain('We decided to ship on Friday.');

    // The Code Helper reads 300 tokens, about 1,200 characters: a 5,000-character file is cut.
    const long = `BEGINNING ${'lorem ipsum '.repeat(415)} THE END`;
    const text = await upload(server, user, Buffer.from(long), 'long.txt', 'text/plain');
    const small = await newTopic(user, 'Code Helper');
    await send(user, small, { text: 'Read it', files: [text.body._id] });
    const cut = textOf(lastAsked()?.content);
    expect(cut).toContain('BEGINNING');
    expect(cut).not.toContain('THE END');
    expect(cut).toMatch(new RegExp(`truncated="only the first \\d+ of ${long.length} characters fit"`));
    expect(cut.length).toBeLessThan(300 * 4 + 200);
  });

  it('shows a deleted file as removed in the messages that carried it, and the model is told so', async () => {
    const user = await signUp(server);
    const file = await upload(server, user, Buffer.from('the secret plan'), 'plan.txt', 'text/plain');
    const topic = await newTopic(user, 'Assistant');
    await send(user, topic, { text: 'Keep this', files: [file.body._id] });
    expect(
      (await call(server, `/api/v1/file/${file.body._id}`, { method: 'DELETE', token: user.token })).body,
    ).toEqual({
      success: true,
    });
    const { messages } = await topicOf(user, topic);
    expect(messages[0].files).toEqual([
      { _id: file.body._id, name: 'plan.txt', type: 'text/plain', size: 15, removed: true },
    ]);
    await send(user, topic, { text: 'What did I give you?' });
    const earlier = textOf(
      model.requests.at(-1)?.messages.find((turn) => textOf(turn.content).startsWith('Keep this'))?.content,
    );
    expect(earlier).toContain(
      '[Attached file name="plan.txt" type="text/plain": not included, deleted by its owner since.]',
    );
    expect(earlier).not.toContain('the secret plan');
  });

  it("deletes a conversation's files with it, but not files another conversation carries, nor bytes still used", async () => {
    const user = await signUp(server);
    const only = randomBytes(2000).toString('hex');
    const onlyHere = await upload(server, user, Buffer.from(only), 'only.txt', 'text/plain');
    const copy = await upload(server, user, Buffer.from(only), 'copy.txt', 'text/plain');
    const shared = await upload(
      server,
      user,
      Buffer.from(`shared ${randomBytes(8).toString('hex')}`),
      'shared.txt',
    );
    const unique = await upload(
      server,
      user,
      Buffer.from(`unique ${randomBytes(8).toString('hex')}`),
      'unique.txt',
    );
    const first = await newTopic(user, 'Assistant');
    const second = await newTopic(user, 'Assistant');
    await send(user, first, { text: 'Here', files: [onlyHere.body._id, shared.body._id, unique.body._id] });
    await send(user, second, { text: 'Again', files: [shared.body._id] });
    const blobs = await blobCount();
    expect(
      (await call(server, `/api/v1/topic/${first}`, { method: 'DELETE', token: user.token })).status,
    ).toBe(200);
    const status = async (id: string) =>
      (await call(server, `/api/v1/file/${id}`, { token: user.token })).status;
    expect(await status(onlyHere.body._id)).toBe(404);
    expect(await status(unique.body._id)).toBe(404);
    expect(await status(shared.body._id)).toBe(200);
    // The copy is the same bytes: they stay while it uses them; the unique file's bytes are gone.
    expect((await download(server, user, copy.body._id)).bytes.toString()).toBe(only);
    expect(await blobCount()).toBe(blobs - 1);
  });

  it("deletes an account's files and their bytes with the account", async () => {
    const user = await signUp(server);
    const file = await upload(
      server,
      user,
      Buffer.from(`mine ${randomBytes(8).toString('hex')}`),
      'mine.txt',
    );
    expect(file.status).toBe(201);
    const blobs = await blobCount();
    const deleted = await call(server, '/api/v1/user/me', {
      method: 'DELETE',
      token: user.token,
      body: { password: user.encrypt(user.password) },
    });
    expect(deleted.body).toEqual({ success: true });
    expect(await blobCount()).toBe(blobs - 1);
  });

  it('"Download my data": the JSON lists the files; ?format=zip holds that JSON and the files\' bytes', async () => {
    const user = await signUp(server);
    const picture = await png(30, 30);
    const image = await upload(server, user, picture, 'dot.png', 'image/png');
    const notes = await upload(server, user, Buffer.from('my notes'), 'notes.md', 'text/markdown');
    const topic = await newTopic(user, 'Assistant');
    await send(user, topic, { text: 'Notes attached', files: [notes.body._id] });
    const json = await call(server, '/api/v1/user/me/export', { token: user.token });
    expect(json.status).toBe(200);
    expect(json.body.files.map((file: { name: string }) => file.name)).toEqual(['dot.png', 'notes.md']);
    expect(json.body.topics[0].messages[0].files).toEqual([
      { _id: notes.body._id, name: 'notes.md', type: 'text/plain', size: 8 },
    ]);
    const response = await fetch(`${server.url}/api/v1/user/me/export?format=zip`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="parley-${user.username}.zip"`,
    );
    const entries = readZip(Buffer.from(await response.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(
      [
        `files/${image.body._id}/dot.png`,
        `files/${notes.body._id}/notes.md`,
        `parley-${user.username}.json`,
      ].sort(),
    );
    expect(entries.get(`files/${notes.body._id}/notes.md`)?.toString()).toBe('my notes');
    expect(
      entries
        .get(`files/${image.body._id}/dot.png`)
        ?.equals((await download(server, user, image.body._id)).bytes),
    ).toBe(true);
    const data = JSON.parse(entries.get(`parley-${user.username}.json`)?.toString() ?? '{}');
    expect(data.account.username).toBe(user.username);
    expect(data.files).toHaveLength(2);
  });
});
