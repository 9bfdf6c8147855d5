import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../../support/openai-double';
import { type Actor, admin, loginOwner, stream } from '../admin/support';
import { makeDocx, upload } from '../files/support';
import { ask, createBase, filler, makePages, settled, uploadDocument } from './support';

type User = Awaited<ReturnType<typeof signUp>>;

describe('retrieval: model bots given passages, the Librarian quoting them, with citations', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let owner: Actor;
  let bots: Record<string, string>;
  let baseId: string;
  let policies: string;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url });
    owner = await loginOwner(server, 'app');
    bots = Object.fromEntries(
      (await admin(server, owner, '/bot')).body.map((bot: { name: string; _id: string }) => [
        bot.name,
        bot._id,
      ]),
    );
    const base = await createBase(server, owner, 'Policies');
    baseId = base._id;
    const pdf = await makePages([
      `Welcome to the staff policies. ${filler(300, 1)}`,
      `Refunds: a customer may ask for a refund within thirty days of the purchase. ${filler(300, 2)}`,
      `Parking: employees park their cars in lot B behind the warehouse. ${filler(300, 3)}`,
    ]);
    const uploaded = await uploadDocument(server, owner, baseId, pdf, 'policies.pdf');
    policies = uploaded.body._id;
    expect((await settled(server, owner, baseId)).documents[0].status).toBe('ready');
    for (const bot of ['Assistant', 'Librarian'])
      await admin(server, owner, `/bot/${bots[bot]}`, { method: 'PATCH', body: { knowledge: [baseId] } });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  const newTopic = async (user: User, bot: string) =>
    (await call(server, '/api/v1/topic', { token: user.token, body: { bot: bots[bot] } })).body._id as string;

  it('indexes passages page by page, with vectors from the provider in the OpenAI wire format', async () => {
    const { rows } = await server.app.db.query<{ page: number; vectors: boolean }>(
      'select page, embedding is not null as vectors from knowledge_passages where file_id = $1 order by position',
      [policies],
    );
    expect(rows.map((row) => row.page)).toEqual([1, 2, 3]);
    expect(rows.every((row) => row.vectors)).toBe(true);
    expect(model.embeddings[0]).toMatchObject({ model: 'text-embedding-3-small', input: expect.any(Array) });
  });

  it('gives a knowledge-bound model bot the best passages, and its reply carries their citations', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Assistant');
    const reply = await ask(server, user, topic, {
      text: 'How many days do customers have to ask for a refund?',
    });
    expect(reply.done).not.toBeNull();
    const asked = textOf(model.requests.at(-1)?.messages.at(-1)?.content);
    expect(asked).toContain('How many days do customers have to ask for a refund?');
    expect(asked).toMatch(
      /<passage n="1" file="policies.pdf" page="2">\nRefunds: a customer may ask for a refund/,
    );
    // Parking shares no word with the question: not given.
    expect(asked).not.toContain('lot B');
    const citations = reply.done.citations;
    expect(citations[0]).toEqual({
      n: 1,
      fileId: policies,
      name: 'policies.pdf',
      page: 2,
      snippet: expect.stringContaining('refund within thirty days'),
    });
    const stored = (await call(server, `/api/v1/topic/${topic}`, { token: user.token })).body.messages;
    expect(stored.find((message: { role: string }) => message.role === 'bot').citations).toEqual(citations);
  });

  it('the Librarian quotes a knowledge base with [n] and its page, and says plainly when nothing matches', async () => {
    const user = await signUp(server);
    const topic = await newTopic(user, 'Librarian');
    const requests = model.requests.length;
    const found = await ask(server, user, topic, { text: 'Where do employees park?' });
    expect(found.text).toContain('> Parking: employees park their cars in lot B');
    expect(found.text).toContain('[1]');
    expect(found.text).toContain('[1] *policies.pdf*, page 3');
    expect(found.done).toMatchObject({ cost: 0, citations: [{ n: 1, fileId: policies, page: 3 }] });
    const nothing = await ask(server, user, topic, { text: 'What is the capital of France?' });
    expect(nothing.text).toMatch(/^Nothing in the documents I searched matches your question/);
    expect(nothing.done).not.toHaveProperty('citations');
    // No model was asked.
    expect(model.requests.length).toBe(requests);
  });

  it("the admin's Try it answers from the knowledge bases as a chat does, storing and charging nothing", async () => {
    const tryIt = (bot: string, text: string) =>
      stream(server, `/api/v1/admin/bot/${bots[bot]}/try`, owner.token, 'app', {
        messages: [{ role: 'user', text }],
      });
    const balance = async () =>
      (await call(server, `/payment/billing-info/${owner.id}`, { token: owner.token })).body.balance;
    const before = await balance();
    const librarian = await tryIt('Librarian', 'Where do employees park?');
    const text = librarian.events
      .filter((event) => event.event === 'token')
      .map((event) => event.data.text)
      .join('');
    expect(text).toContain('> Parking: employees park their cars in lot B');
    expect(text).toContain('[1] *policies.pdf*, page 3');
    expect(librarian.events.at(-1)).toMatchObject({
      event: 'done',
      data: { cost: 0, citations: [{ n: 1, fileId: policies, name: 'policies.pdf', page: 3 }] },
    });

    // A model bot is given the passages, as in a chat.
    const assistant = await tryIt('Assistant', 'How many days do customers have to ask for a refund?');
    expect(assistant.events.at(-1)?.event).toBe('done');
    expect(textOf(model.requests.at(-1)?.messages.at(-1)?.content)).toMatch(
      /<passage n="1" file="policies.pdf" page="2">\nRefunds: a customer may ask for a refund/,
    );
    expect(await balance()).toBe(before);
    expect((await call(server, '/api/v1/topic', { token: owner.token })).body).toEqual([]);
  });

  it('the Librarian answers from a document attached in the conversation', async () => {
    const user = await signUp(server);
    const docx = await makeDocx(['Minutes', 'The board approved the new budget of four million on Monday.']);
    const file = await upload(server, user, docx, 'minutes.docx');
    const topic = await newTopic(user, 'Librarian');
    const first = await ask(server, user, topic, { text: 'Here are the minutes.', files: [file.body._id] });
    expect(first.done).not.toBeNull();
    const found = await ask(server, user, topic, { text: 'What budget did the board approve?' });
    expect(found.text).toContain(
      '> Minutes The board approved the new budget of four million on Monday. [1]',
    );
    expect(found.done.citations).toEqual([
      { n: 1, fileId: file.body._id, name: 'minutes.docx', snippet: expect.stringContaining('budget') },
    ]);
  });

  it('gives a model bot the relevant passages of an attached document too long for its context', async () => {
    await admin(server, owner, `/bot/${bots['Code Helper']}`, {
      method: 'PATCH',
      body: { contextTokens: 1000 },
    });
    const user = await signUp(server);
    const long = `${filler(2000, 4)}\n\nThe secret password of the vault is heliotrope.\n\n${filler(2000, 5)}`;
    const file = await upload(server, user, Buffer.from(long), 'long.txt', 'text/plain');
    const topic = await newTopic(user, 'Code Helper');
    const reply = await ask(server, user, topic, {
      text: 'What is the secret password of the vault?',
      files: [file.body._id],
    });
    const asked = textOf(model.requests.at(-1)?.messages.at(-1)?.content);
    expect(asked).toMatch(/truncated="only the first \d+ of \d+ characters fit"/);
    expect(asked).toContain('<passage n="1" file="long.txt">');
    expect(asked).toContain('The secret password of the vault is heliotrope.');
    expect(asked.length).toBeLessThan(1000 * 4 + 500);
    expect(reply.done.citations).toEqual([
      { n: 1, fileId: file.body._id, name: 'long.txt', snippet: expect.stringContaining('heliotrope') },
    ]);
  });
});
