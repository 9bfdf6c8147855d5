import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { botIds, call, type Json, signUp, startApp, type TestServer } from '../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../support/openai-double';
import { readEvents } from '../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;

/** A ChatGPT node: `mapping`'s entry with its message (null for the root). */
const node = (
  id: string,
  parent: string | null,
  children: string[],
  message: Json = null,
): [string, Json] => [id, { id, parent, children, message }];
const said = (id: string, role: string, parts: unknown[], extra: Json = {}) => ({
  id,
  author: { role },
  create_time: 1_700_000_000 + Number(id.replace(/\D/g, '') || 0) * 60,
  content: { content_type: extra.content_type ?? 'text', parts },
  recipient: 'all',
  metadata: {},
  ...extra,
});

/**
 * ChatGPT's export: a conversation whose first answer was regenerated (two branches, the second on
 * screen), with a system prompt, hidden custom instructions, a browsing call and its result (left
 * out), and an image the user sent; and a short second conversation.
 */
const chatGptExport = (suffix = '') => [
  {
    id: `gpt-branching${suffix}`,
    conversation_id: `gpt-branching${suffix}`,
    title: 'Tides and the moon',
    create_time: 1_700_000_000.5,
    update_time: 1_700_000_900.25,
    current_node: 'n9',
    mapping: Object.fromEntries([
      node('root', null, ['n1']),
      node('n1', 'root', ['n2'], said('n1', 'system', [''])),
      node(
        'n2',
        'n1',
        ['n3'],
        said('n2', 'user', ['Call me Ishmael.'], {
          content_type: 'user_editable_context',
          metadata: { is_visually_hidden_from_conversation: true },
        }),
      ),
      node(
        'n3',
        'n2',
        ['n4', 'n5'],
        said('n3', 'user', ['Why are there tides?', { content_type: 'image_asset_pointer' }], {
          content_type: 'multimodal_text',
        }),
      ),
      node('n4', 'n3', [], said('n4', 'assistant', ['Because of the wind.'])),
      node('n5', 'n3', ['n6'], said('n5', 'assistant', ['Because of the moon.'])),
      node('n6', 'n5', ['n7'], said('n6', 'user', ['And the sun?'])),
      node(
        'n7',
        'n6',
        ['n8'],
        said('n7', 'assistant', ['search("sun tides")'], { content_type: 'code', recipient: 'browser' }),
      ),
      node('n8', 'n7', ['n9'], said('n8', 'tool', ['Results: …'])),
      node('n9', 'n8', [], said('n9', 'assistant', ['The sun too, a little less.'])),
    ]),
  },
  {
    id: `gpt-short${suffix}`,
    title: 'Short',
    create_time: 1_700_100_000,
    update_time: 1_700_100_060,
    current_node: 'b',
    mapping: Object.fromEntries([
      node('a', null, ['b'], said('a', 'user', ['Hi'])),
      node('b', 'a', [], said('b', 'assistant', ['Hello!'])),
    ]),
  },
];

/** Claude's export: linear conversations, one with a file it carried. */
const claudeExport = [
  {
    uuid: 'claude-1',
    name: 'Bread at home',
    created_at: '2024-03-01T10:00:00.000Z',
    updated_at: '2024-03-01T10:05:00.000Z',
    chat_messages: [
      {
        uuid: 'c1',
        sender: 'human',
        text: 'How do I bake bread?',
        content: [{ type: 'text', text: 'How do I bake bread?' }],
        created_at: '2024-03-01T10:00:00.000Z',
        attachments: [{ file_name: 'recipe.pdf', file_size: 100, file_type: 'pdf', extracted_content: '…' }],
        files: [],
      },
      {
        uuid: 'c2',
        sender: 'assistant',
        text: '',
        content: [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'text', text: 'Flour, water, salt, time.' },
        ],
        created_at: '2024-03-01T10:01:00.000Z',
        attachments: [],
        files: [],
      },
    ],
  },
  {
    uuid: 'claude-2',
    name: '',
    created_at: '2024-03-02T10:00:00.000Z',
    updated_at: '2024-03-02T10:00:00.000Z',
    chat_messages: [
      { uuid: 'd1', sender: 'human', text: 'What is sourdough, and why does everyone talk about it lately?' },
      { uuid: 'd2', sender: 'assistant', text: 'Bread raised by wild yeast.' },
    ],
  },
  {
    // A newer export: each message names its parent; the answer was retried, the retry is on screen.
    uuid: 'claude-3',
    name: 'Rye',
    created_at: '2024-03-03T10:00:00.000Z',
    updated_at: '2024-03-03T10:09:00.000Z',
    current_leaf_message_uuid: 'e5',
    chat_messages: [
      {
        uuid: 'e1',
        parent_message_uuid: '00000000-0000-4000-8000-000000000000',
        sender: 'human',
        text: 'Rye?',
      },
      { uuid: 'e2', parent_message_uuid: 'e1', sender: 'assistant', text: 'A grain.' },
      { uuid: 'e3', parent_message_uuid: 'e1', sender: 'assistant', text: 'A grain for dark bread.' },
      { uuid: 'e4', parent_message_uuid: 'e3', sender: 'human', text: 'Sourdough too?' },
      { uuid: 'e5', parent_message_uuid: 'e4', sender: 'assistant', text: 'Always.' },
    ],
  },
];

async function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('bringing one’s history (ChatGPT, Claude) and titles worth reading', () => {
  let model: OpenAiDouble;
  let server: TestServer;
  let bots: Record<string, string>;
  let user: User;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    // A small unpacking limit, so that a zip bomb is cheap to make.
    server = await startApp({
      OPENAI_BASE_URL: model.url,
      IMPORT_MAX_EXPANDED_MB: '1',
      RATE_LIMIT_IMPORTS_PER_USER_PER_HOUR: '12',
    });
    bots = await botIds(server);
    user = await signUp(server);
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  /** Uploads a file as the web app does (multipart field `file`, with the other fields given). */
  async function upload(
    who: User,
    file: string | Buffer,
    fields: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append(
      'file',
      new Blob([typeof file === 'string' ? file : new Uint8Array(file)]),
      'conversations.json',
    );
    const response = await fetch(`${server.url}/api/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, organization: who.tenant, ...headers },
      body: form,
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text,
      body: safeJson(text),
    };
  }
  const safeJson = (text: string): Json => {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  };
  const topicsOf = async (who: User) =>
    (await call(server, '/api/v1/topic', { token: who.token, tenant: who.tenant })).body as Json[];
  const read = async (who: User, id: string) =>
    (await call(server, `/api/v1/topic/${id}`, { token: who.token, tenant: who.tenant })).body;
  /** The texts of the branch on screen, from the first message to the head. */
  const branch = (topic: Json) => {
    const byId = new Map<string, Json>(topic.messages.map((message: Json) => [message._id, message]));
    const texts: string[] = [];
    for (let at = byId.get(topic.head); at; at = at.parent ? byId.get(at.parent) : undefined)
      texts.unshift(at.text);
    return texts;
  };

  it('imports ChatGPT’s conversations.json with every branch, its title and times; again, nothing twice', async () => {
    const file = JSON.stringify(chatGptExport());
    const first = await upload(user, file);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ imported: 2, skipped: 0 });
    const [branching, short] = first.body.topics;
    const topic = await read(user, branching);
    expect(topic.title).toBe('Tides and the moon');
    expect(topic.createdAt).toBe('2023-11-14T22:13:20.500Z');
    expect(topic.updatedAt).toBe('2023-11-14T22:28:20.250Z');
    // Both answers to the first question are there; the one on screen in ChatGPT is the head's branch.
    expect(topic.messages.map((message: Json) => [message.role, message.text])).toEqual([
      ['user', 'Why are there tides?\n\n[Image not imported]'],
      ['bot', 'Because of the wind.'],
      ['bot', 'Because of the moon.'],
      ['user', 'And the sun?'],
      ['bot', 'The sun too, a little less.'],
    ]);
    const [question, wind, moon] = topic.messages;
    expect(wind.parent).toBe(question._id);
    expect(moon.parent).toBe(question._id);
    expect(branch(topic)).toEqual([
      'Why are there tides?\n\n[Image not imported]',
      'Because of the moon.',
      'And the sun?',
      'The sun too, a little less.',
    ]);
    expect(moon.createdAt).toBe(new Date((1_700_000_000 + 5 * 60) * 1000).toISOString());
    expect(branch(await read(user, short))).toEqual(['Hi', 'Hello!']);

    const again = await upload(user, file);
    expect(again.body).toEqual({ imported: 0, skipped: 2, topics: [] });
    expect((await topicsOf(user)).filter((item) => item.title === 'Tides and the moon')).toHaveLength(1);
  });

  it('imports Claude’s conversations.json, saying what was not brought; again, nothing twice', async () => {
    const file = JSON.stringify(claudeExport);
    const first = await upload(user, file);
    expect(first.body).toMatchObject({ imported: 3, skipped: 0 });
    const [bread, sourdough, rye] = await Promise.all(first.body.topics.map((id: string) => read(user, id)));
    expect(bread.title).toBe('Bread at home');
    expect(bread.createdAt).toBe('2024-03-01T10:00:00.000Z');
    expect(branch(bread)).toEqual([
      'How do I bake bread?\n\n[Attachment “recipe.pdf” not imported]',
      'Flour, water, salt, time.',
    ]);
    // Untitled there: named after its first message, as Parley names a conversation.
    expect(sourdough.title).toBe('What is sourdough, and why does everyone talk about it…');
    const [question, first1, retry] = rye.messages;
    expect([first1.parent, retry.parent]).toEqual([question._id, question._id]);
    expect(branch(rye)).toEqual(['Rye?', 'A grain for dark bread.', 'Sourdough too?', 'Always.']);
    expect((await upload(user, file)).body).toEqual({ imported: 0, skipped: 3, topics: [] });
  });

  it('imports the .zip ChatGPT mails (only its conversations.json is read), with progress lines when asked', async () => {
    const zip = await zipOf({
      'chat.html': '<html>…</html>',
      'conversations.json': JSON.stringify(chatGptExport('-zipped')),
      'user.json': '{}',
    });
    const answer = await upload(user, zip, {}, { accept: 'application/x-ndjson' });
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('application/x-ndjson');
    const lines = answer.text.trim().split('\n').map(safeJson);
    expect(lines.slice(0, -1)).toEqual([{ progress: 0 }, { progress: 0.5 }, { progress: 1 }]);
    expect(lines.at(-1)).toMatchObject({ imported: 2, skipped: 0 });
    expect(branch(await read(user, lines.at(-1).topics[0])).at(-1)).toBe('The sun too, a little less.');
  });

  it('refuses a wrong or hostile file with 422 saying what is wrong, and writes nothing', async () => {
    const other = await signUp(server);
    const valid = JSON.stringify(chatGptExport('-cut'));
    const refused: [string | Buffer, RegExp][] = [
      ['Hello, this is not JSON', /not JSON/],
      ['{"conversations": []}', /one object, not a list/],
      ['[{"messages": [{"role": "user", "content": "hi"}]}]', /not a conversation of ChatGPT/],
      ['[1, 2]', /not an object/],
      [`${'['.repeat(3)}${'{"a":'.repeat(10_000)}`, /nested more than 64 levels/],
      // The first conversation is whole, the file is cut in the second: nothing of it is stored.
      [valid.slice(0, valid.length - 40), /cut off/],
      ['[{"id": "x", "mapping": {}, "title": tru}]', /not valid JSON/],
      ['', /empty/],
      [await zipOf({ 'user.json': '{}' }), /no conversations\.json/],
      [await zipOf({ 'conversations.json': `[${' '.repeat(2 * 1024 * 1024)}]` }), /unpack to more than 1 MB/],
      [Buffer.from('PK\u0003\u0004 and then nothing of a zip'), /damaged/],
    ];
    for (const [file, reason] of refused) {
      const answer = await upload(other, file);
      expect(answer.status, String(file).slice(0, 40)).toBe(422);
      expect(answer.body).toMatchObject({ code: 'INVALID_EXPORT', field: 'file' });
      expect(answer.body.error).toMatch(reason);
    }
    expect(await topicsOf(other)).toEqual([]);
    // Not a form at all, or a form without the file.
    expect((await call(server, '/api/v1/import', { token: other.token, body: { file: valid } })).status).toBe(
      415,
    );
    // Imports are heavy: a member starts only so many an hour (12 here), whatever became of them.
    const limited = await upload(other, valid);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(await topicsOf(other)).toEqual([]);
  });

  it('imports into a project the member may read; anyone else’s project is 404', async () => {
    const owner = await signUp(server);
    const { rows } = await server.app.db.query<{ id: string }>(
      `insert into projects (tenant, owner_id, name, bot_id) values ('app', $1, 'Kitchen', $2) returning id`,
      [owner.id, bots.Assistant],
    );
    const project = rows[0].id;
    const file = JSON.stringify(claudeExport);
    for (const id of [project, 'no-such-project']) {
      const answer = await upload(user, file, { project: id });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
    const mine = await upload(owner, file, { project });
    expect(mine.body).toMatchObject({ imported: 3 });
    // The project's default bot continues them.
    const stored = await server.app.db.query<{ project_id: string; bot_id: string; title_set: boolean }>(
      'select project_id, bot_id, title_set from topics where id = any($1)',
      [mine.body.topics],
    );
    expect(stored.rows).toHaveLength(3);
    expect(new Set(stored.rows.map((row) => JSON.stringify(row)))).toEqual(
      new Set([JSON.stringify({ project_id: project, bot_id: bots.Assistant, title_set: true })]),
    );
  });

  it('keeps imports to the importer: no one else sees them; another member imports the same file for themselves', async () => {
    const owner = await signUp(server);
    const stranger = await signUp(server);
    const acme = await signUp(server, 'acme');
    const file = JSON.stringify(chatGptExport('-private'));
    const mine = await upload(owner, file);
    for (const other of [stranger, acme]) {
      for (const id of mine.body.topics)
        expect(
          (await call(server, `/api/v1/topic/${id}`, { token: other.token, tenant: other.tenant })).status,
        ).toBe(404);
      expect(await topicsOf(other)).toEqual([]);
    }
    expect((await upload(stranger, file)).body).toMatchObject({ imported: 2, skipped: 0 });
    const acmeAnswer = await upload(acme, file);
    expect(acmeAnswer.body).toMatchObject({ imported: 2, skipped: 0 });
    // Continued with a bot of acme's own catalogue, not app's.
    const acmeTopic = await read(acme, acmeAnswer.body.topics[0]);
    const acmeBots = (await call(server, '/api/v1/bot', { token: acme.token, tenant: 'acme' })).body;
    expect(acmeBots.map((bot: Json) => bot._id)).toContain(acmeTopic.bot._id);
  });

  it('continues an imported conversation with a bot: the model is given the branch on screen; nothing charged for importing', async () => {
    const member = await signUp(server);
    const before = await call(server, `/payment/billing-info/${member.id}`, { token: member.token });
    const answer = await upload(member, JSON.stringify(chatGptExport('-continued')), { bot: bots.Assistant });
    const after = await call(server, `/payment/billing-info/${member.id}`, { token: member.token });
    expect(after.body.balance).toBe(before.body.balance);
    expect(after.body.transactions).toEqual(before.body.transactions);
    const id = answer.body.topics[0];
    expect((await read(member, id)).bot._id).toBe(bots.Assistant);
    const response = await fetch(`${server.url}/api/v1/topic/${id}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
      body: JSON.stringify({ text: 'And the stars?' }),
    });
    const events = await readEvents(response);
    expect(events.at(-1)?.event).toBe('done');
    expect(
      model.requests
        .at(-1)
        ?.messages.filter((message) => message.role !== 'system')
        .map((message) => textOf(message.content)),
    ).toEqual([
      'Why are there tides?\n\n[Image not imported]',
      'Because of the moon.',
      'And the sun?',
      'The sun too, a little less.',
      'And the stars?',
    ]);
    // Its title came from ChatGPT: no title is written for it.
    expect((await read(member, id)).title).toBe('Tides and the moon');
  });

  /** Starts a topic with `bot` and sends its first message; the reply's events. */
  async function firstMessage(who: User, bot: string, text: string) {
    const topic = (await call(server, '/api/v1/topic', { token: who.token, body: { bot } })).body
      ._id as string;
    const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}` },
      body: JSON.stringify({ text }),
    });
    return { topic, events: await readEvents(response) };
  }

  it('a model bot titles the conversation after its first reply, with its own model, charging nothing for it', async () => {
    const member = await signUp(server);
    const before = await call(server, `/payment/billing-info/${member.id}`, { token: member.token });
    const asked = model.titleRequests.length;
    model.scriptTitles(() => ({ chunks: ['"Tides and the Moon."'] }));
    const { topic, events } = await firstMessage(member, bots.Assistant, 'Why are there tides?');
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    expect(done?.data.title).toBe('Tides and the Moon');
    expect(model.titleRequests.length).toBe(asked + 1);
    expect(model.titleRequests.at(-1)).toMatchObject({ stream: false, model: 'gpt-4o-mini' });
    expect(model.titleRequests.at(-1)?.messages.slice(1)).toEqual([
      { role: 'user', content: 'Why are there tides?' },
      { role: 'assistant', content: 'You said: Why are there tides?' },
      { role: 'user', content: 'Write the title now.' },
    ]);
    expect((await read(member, topic)).title).toBe('Tides and the Moon');
    // The reply is charged; the title is not.
    const billing = await call(server, `/payment/billing-info/${member.id}`, { token: member.token });
    expect(billing.body.transactions).toHaveLength(before.body.transactions.length + 1);
    expect(billing.body.balance).toBe(done?.data.balance);
    expect(billing.body.balance).toBeCloseTo(before.body.balance - (done?.data.cost as number), 6);
    expect(done?.data.cost).toBe(0.05);
    // Only the first reply names the conversation.
    const next = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
      body: JSON.stringify({ text: 'And the sun?' }),
    });
    expect((await readEvents(next)).at(-1)?.data.title).toBeUndefined();
    expect(model.titleRequests.length).toBe(asked + 1);
  });

  it('never replaces a title the member set, even one set while the model was writing its own', async () => {
    const member = await signUp(server);
    let renamed: Promise<unknown> = Promise.resolve();
    let topicId = '';
    model.scriptTitles(() => {
      // The member renames the conversation while the model's title is on its way.
      renamed = call(server, `/api/v1/topic/${topicId}`, {
        method: 'PATCH',
        token: member.token,
        body: { title: 'My own name' },
      });
      return { chunks: ['A model title'], delayMs: 400 };
    });
    topicId = (await call(server, '/api/v1/topic', { token: member.token, body: { bot: bots.Assistant } }))
      .body._id;
    const response = await fetch(`${server.url}/api/v1/topic/${topicId}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
      body: JSON.stringify({ text: 'Tell me about tides' }),
    });
    const done = (await readEvents(response)).at(-1);
    await renamed;
    expect(done?.event).toBe('done');
    expect(done?.data.title).toBeUndefined();
    expect((await read(member, topicId)).title).toBe('My own name');
  });

  it('keeps the first line, shortened at a word boundary, when no model titles it (a built-in bot, or a failed title call)', async () => {
    const member = await signUp(server);
    const long =
      'I have been thinking about the tides and the moon all week long, and I wonder why\nSecond line';
    const eliza = await firstMessage(member, bots.ELIZA, long);
    expect(eliza.events.at(-1)?.event).toBe('done');
    expect((await read(member, eliza.topic)).title).toBe(
      'I have been thinking about the tides and the moon all week…',
    );
    model.scriptTitles(() => ({ chunks: ['The model server is down.'], status: 503 }));
    const failed = await firstMessage(member, bots.Assistant, 'Short question\nwith a second line');
    expect(failed.events.at(-1)?.event).toBe('done');
    expect(failed.events.at(-1)?.data.title).toBeUndefined();
    expect((await read(member, failed.topic)).title).toBe('Short question');
  });
});
