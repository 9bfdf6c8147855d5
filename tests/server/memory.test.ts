import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, type Json, signUp, startApp, type TestServer } from '../support/app';
import {
  type ChatRequest,
  type OpenAiDouble,
  startOpenAiDouble,
  textOf,
  toolSteps,
} from '../support/openai-double';
import { readEvents } from '../support/sse';
import { admin, login, loginOwner, member } from './admin/support';
import { upload } from './files/support';
import { giveTools, newKey, newTopic, say, stepEvents, type User } from './tools/support';

/** Custom instructions and memory: the member's routes, what a model bot's reply is given, `remember`. */
describe('custom instructions and memory', () => {
  let model: OpenAiDouble;
  let server: TestServer;
  let bots: Record<string, string>;
  const botPrompt = 'You are Parley Assistant, a helpful, concise assistant. Answer in markdown.';

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url });
    bots = await botIds(server);
    // The seeded Assistant has no tools of its own: `remember` is the member's, not the bot's.
    await giveTools(server, 'app', bots.Assistant, []);
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  const as = (user: User, path: string, options: { method?: string; body?: Json } = {}) =>
    call(server, path, { ...options, token: user.token, tenant: user.tenant });
  const remember = (user: User, text: string, project?: string | null) =>
    as(user, '/api/v1/memory', { body: { text, ...(project === undefined ? {} : { project }) } });
  const memories = async (user: User, query = '') =>
    (await as(user, `/api/v1/memory${query}`)).body as Json[];
  const setMemory = async (on: boolean) => {
    const owner = await loginOwner(server, 'app');
    const answer = await admin(server, owner, '/settings', { method: 'PATCH', body: { memory: on } });
    expect(answer.status).toBe(200);
    expect(answer.body.memory).toBe(on);
  };

  /** Sends a message; the first request the model got for it, its system prompt and the tools offered. */
  async function reply(user: User, topic: string, text: string) {
    const asked = model.requests.length;
    const events = await say(server, user, topic, text);
    expect(events.at(-1)?.event, JSON.stringify(events.at(-1))).toBe('done');
    const sent = model.requests[asked] as ChatRequest;
    const system = sent.messages[0].role === 'system' ? textOf(sent.messages[0].content) : '';
    return { events, system, tools: (sent.tools ?? []).map((tool) => tool.function.name) };
  }

  /** A project of the member's and a conversation in it. */
  async function projectOf(user: User) {
    const made = await as(user, '/api/v1/project', {
      body: { name: user.encrypt('Garden'), instructions: 'Answer as a gardener.' },
    });
    expect(made.status).toBe(201);
    const topic = await as(user, '/api/v1/topic', { body: { bot: bots.Assistant, project: made.body._id } });
    expect(topic.status).toBe(201);
    return { project: made.body._id as string, topic: topic.body._id as string };
  }

  it('gives a reply the bot’s prompt, then the custom instructions, then the memories; remember saves one, Undo deletes it', async () => {
    const user = await signUp(server);
    expect((await as(user, '/api/v1/user/me/instructions')).body).toEqual({ text: '', useMemory: true });
    const put = await as(user, '/api/v1/user/me/instructions', {
      method: 'PUT',
      body: { text: '  I am a botanist. Answer briefly.  ' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ text: 'I am a botanist. Answer briefly.', useMemory: true });
    expect((await as(user, '/api/v1/user/me/instructions')).body).toEqual(put.body);
    const added = await remember(user, '  My cat is called Miso.  ');
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      _id: expect.any(String),
      text: 'My cat is called Miso.',
      project: null,
      createdAt: expect.any(String),
      source: 'member',
    });

    model.script(
      toolSteps([
        { call: { name: 'remember', arguments: { text: 'Prefers metric units.' } } },
        { answer: () => 'Noted.' },
      ]),
    );
    const topic = await newTopic(server, user, bots.Assistant);
    const { events, system, tools } = await reply(user, topic, 'Remember that I prefer metric units');
    // One system message, in the order.
    const at = (text: string) => system.indexOf(text);
    expect(at(botPrompt)).toBe(0);
    expect(at(botPrompt)).toBeLessThan(at('I am a botanist. Answer briefly.'));
    expect(at('I am a botanist. Answer briefly.')).toBeLessThan(at('- My cat is called Miso.'));
    expect(tools).toEqual(['remember']);

    const [running, done] = stepEvents(events);
    expect(running).toMatchObject({
      tool: 'remember',
      status: 'running',
      arguments: { text: 'Prefers metric units.' },
    });
    expect(done.status).toBe('done');
    const saved = JSON.parse(done.result);
    expect(saved).toEqual({ _id: expect.any(String), text: 'Prefers metric units.' });
    expect(await memories(user)).toEqual([
      {
        _id: saved._id,
        text: 'Prefers metric units.',
        project: null,
        createdAt: expect.any(String),
        source: 'model',
      },
      added.body,
    ]);

    // Undo: the step's memory is deleted; once.
    expect((await as(user, `/api/v1/memory/${saved._id}`, { method: 'DELETE' })).body).toEqual({
      success: true,
    });
    expect((await as(user, `/api/v1/memory/${saved._id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await memories(user)).map((memory) => memory.text)).toEqual(['My cat is called Miso.']);

    // A memory the member changes is given as changed; ELIZA (no model) is given nothing and offered nothing.
    const changed = await as(user, `/api/v1/memory/${added.body._id}`, {
      method: 'PATCH',
      body: { text: 'My cat is called Mochi.' },
    });
    expect(changed.body).toMatchObject({
      _id: added.body._id,
      text: 'My cat is called Mochi.',
      source: 'member',
    });
    model.script(() => ({ chunks: ['Hello.'] }));
    expect((await reply(user, topic, 'Hello')).system).toContain('- My cat is called Mochi.');
    // "Download my data" holds them.
    const exported = (await as(user, '/api/v1/user/me/export')).body;
    expect(exported.personalization).toEqual(put.body);
    expect(exported.memories).toEqual([changed.body]);

    // Through the API the caller writes the whole prompt: no instructions, no memories, no remember.
    const asked = model.requests.length;
    const completion = await call(server, '/v1/chat/completions', {
      token: (await newKey(server, user)).key,
      body: { model: bots.Assistant, messages: [{ role: 'user', content: 'Hello' }] },
    });
    expect(completion.status).toBe(200);
    expect(model.requests[asked].messages[0]).toEqual({ role: 'system', content: botPrompt });
    expect(model.requests[asked].tools).toBeUndefined();
  });

  it('with memory off for the organization: nothing given or saved, no remember; what is kept stays listable, editable, deletable', async () => {
    const user = await signUp(server);
    await as(user, '/api/v1/user/me/instructions', { method: 'PUT', body: { text: 'Call me Sam.' } });
    const kept = (await remember(user, 'Lives in Lyon.')).body;
    await setMemory(false);
    try {
      const { rows } = await server.app.db.query<{ after: Json }>(
        `select after from audit_log where tenant = 'app' and action = 'settings.update' order by seq desc limit 1`,
      );
      expect(rows[0].after.memory).toBe(false);

      // The model asks to remember anyway: no such tool was offered, nothing is saved.
      model.script(
        toolSteps([
          { call: { name: 'remember', arguments: { text: 'Likes tea.' } } },
          { answer: () => 'Ok.' },
        ]),
      );
      const topic = await newTopic(server, user, bots.Assistant);
      const { events, system, tools } = await reply(user, topic, 'Remember I like tea');
      expect(tools).toEqual([]);
      expect(system).toContain('Call me Sam.');
      expect(system).not.toContain('Lyon');
      // Not offered, the call is not run: no step, no memory.
      expect(stepEvents(events)).toEqual([]);

      const refused = await remember(user, 'Likes coffee.');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: 'Memory is turned off for your organization: nothing new is saved.',
        code: 'MEMORY_OFF',
      });
      expect((await memories(user)).map((memory) => memory.text)).toEqual(['Lives in Lyon.']);
      const edited = await as(user, `/api/v1/memory/${kept._id}`, {
        method: 'PATCH',
        body: { text: 'Lives in Nice.' },
      });
      expect(edited.status).toBe(200);
      expect((await as(user, `/api/v1/memory/${kept._id}`, { method: 'DELETE' })).status).toBe(200);
      expect(await memories(user)).toEqual([]);
    } finally {
      await setMemory(true);
    }
  });

  it('with the member’s Use memory off: nothing given or saved for them, kept ones stay; others keep theirs', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    await remember(user, 'Plays the cello.');
    await remember(other, 'Plays the oboe.');
    const off = await as(user, '/api/v1/user/me/instructions', { method: 'PUT', body: { useMemory: false } });
    expect(off.body).toEqual({ text: '', useMemory: false });
    model.script(() => ({ chunks: ['Hello.'] }));
    const mine = await reply(user, await newTopic(server, user, bots.Assistant), 'Which instrument?');
    expect(mine.system).toBe(botPrompt);
    expect(mine.tools).toEqual([]);
    const refused = await remember(user, 'Plays the flute.');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('MEMORY_OFF');
    expect((await memories(user)).map((memory) => memory.text)).toEqual(['Plays the cello.']);

    const theirs = await reply(other, await newTopic(server, other, bots.Assistant), 'Which instrument?');
    expect(theirs.system).toContain('- Plays the oboe.');
    expect(theirs.system).not.toContain('cello');
    expect(theirs.tools).toEqual(['remember']);
  });

  it('uses a project’s memories only in that project’s conversations; remember saves into the conversation’s project', async () => {
    const user = await signUp(server);
    const stranger = await signUp(server);
    const { project, topic } = await projectOf(user);
    const elsewhere = await newTopic(server, user, bots.Assistant);
    expect((await remember(user, 'Prefers short answers.')).status).toBe(201);
    const inProject = await remember(user, 'The garden faces north.', project);
    expect(inProject.status).toBe(201);
    expect(inProject.body.project).toBe(project);
    // A project the member may not read is 404, as if it did not exist.
    const theirs = await projectOf(stranger);
    for (const id of [theirs.project, 'no-such-project'])
      expect((await remember(user, 'Sneaking in.', id)).status).toBe(404);

    model.script(
      toolSteps([
        { call: { name: 'remember', arguments: { text: 'Grows tomatoes.' } } },
        { answer: () => 'Ok.' },
      ]),
    );
    await as(user, '/api/v1/user/me/instructions', { method: 'PUT', body: { text: 'I live in Oslo.' } });
    const there = await reply(user, topic, 'What should I plant?');
    // After the bot's prompt: the project's instructions, the member's, then the memories.
    const order = [botPrompt, 'Answer as a gardener.', 'I live in Oslo.', '- Prefers short answers.'];
    const places = order.map((text) => there.system.indexOf(text));
    expect(places.every((place, at) => place >= 0 && (at === 0 || place > places[at - 1]))).toBe(true);
    expect(there.system).toContain('- The garden faces north.');
    const saved = JSON.parse(stepEvents(there.events)[1].result);
    expect(
      (await memories(user, `?project=${project}`)).map((memory) => [memory.text, memory.project]),
    ).toEqual([
      ['Grows tomatoes.', project],
      ['The garden faces north.', project],
    ]);
    expect(saved.text).toBe('Grows tomatoes.');

    model.script(() => ({ chunks: ['Hello.'] }));
    const outside = await reply(user, elsewhere, 'What should I plant?');
    expect(outside.system).toContain('- Prefers short answers.');
    expect(outside.system).not.toContain('north');
    expect(outside.system).not.toContain('tomatoes');

    // A conversation in a project the member may no longer read (as after leaving the group it was
    // shared with) is outside it.
    await server.app.db.query('update topics set project_id = $1 where id = $2', [theirs.project, elsewhere]);
    await server.app.db.query(
      `insert into memories (tenant, user_id, project_id, text, source) values ('app', $1, $2, 'Waters at dawn.', 'member')`,
      [user.id, theirs.project],
    );
    model.script(
      toolSteps([
        { call: { name: 'remember', arguments: { text: 'Likes basil.' } } },
        { answer: () => 'Ok.' },
      ]),
    );
    const left = await reply(user, elsewhere, 'What should I plant?');
    expect(left.system).toContain('- Prefers short answers.');
    expect(left.system).not.toContain('dawn');
    expect((await memories(user)).find((memory) => memory.text === 'Likes basil.')?.project).toBeNull();
  });

  it('with more than 20 memories gives the 20 most relevant to the message, by words and vectors', async () => {
    const user = await signUp(server);
    // The relevant ones are the oldest: the newest 20 alone would leave them out.
    const relevant = [
      'All about them: my twin sons Leo and Max.',
      'I am allergic to peanuts.',
      'My daughter Zoé plays the violin.',
    ];
    for (const text of relevant) expect((await remember(user, text)).status).toBe(201);
    for (let n = 1; n <= 23; n += 1)
      expect((await remember(user, `Filler fact ${n}: the blue lamp number ${n}.`)).status).toBe(201);
    // Each memory's vector is computed apart from its save.
    const vectors = async () =>
      Number(
        (
          await server.app.db.query<{ n: string }>(
            'select count(*) as n from memories where user_id = $1 and embedding is not null',
            [user.id],
          )
        ).rows[0].n,
      );
    await expect.poll(vectors, { timeout: 10_000 }).toBe(26);

    model.script(() => ({ chunks: ['Hello.'] }));
    const question = 'Suggest a snack for my daughter, without peanuts';
    const { system } = await reply(user, await newTopic(server, user, bots.Assistant), question);
    const given = system.split('\n').filter((line) => line.startsWith('- '));
    expect(given).toHaveLength(20);
    expect(given).toContain('- I am allergic to peanuts.');
    expect(given).toContain('- My daughter Zoé plays the violin.');
    // The question was embedded to rank the memories' vectors.
    expect(model.embeddings.some((request) => [request.input].flat().includes(question))).toBe(true);
    // Words full-text search leaves out (every one of these is too common) still find it by its vector.
    const vague = await reply(user, await newTopic(server, user, bots.Assistant), 'What about them?');
    expect(vague.system).toContain('- All about them: my twin sons Leo and Max.');
  });

  it('asks a model server that takes no tools again without remember; a bot given tools by its admin still fails there', async () => {
    const user = await signUp(server);
    // As Ollama answers for a model without function calling.
    model.script((request) =>
      request.tools
        ? { status: 400, chunks: ['registry.ollama.ai/library/tiny:latest does not support tools'] }
        : { chunks: ['Hello without tools.'] },
    );
    const topic = await newTopic(server, user, bots.Assistant);
    const asked = model.requests.length;
    const events = await say(server, user, topic, 'Hello');
    expect(events.at(-1)?.event).toBe('done');
    expect(
      events
        .filter((event) => event.event === 'token')
        .map((event) => event.data.text)
        .join(''),
    ).toBe('Hello without tools.');
    expect(
      model.requests.slice(asked).map((request) => request.tools?.map((tool) => tool.function.name)),
    ).toEqual([['remember'], undefined]);

    await giveTools(server, 'app', bots.Assistant, ['calculator']);
    try {
      const failed = await say(server, user, topic, 'Add 2 and 2');
      expect(failed.at(-1)).toMatchObject({
        event: 'error',
        data: { error: expect.stringContaining('does not support tools') },
      });
    } finally {
      await giveTools(server, 'app', bots.Assistant, []);
    }
  });

  it('leaves the instructions and memories room in the bot’s context: an attached document gives way', async () => {
    const user = await signUp(server);
    const owner = await loginOwner(server, 'app');
    // 2,000 tokens: about 8,000 characters.
    const small = await admin(server, owner, `/bot/${bots['Code Helper']}`, {
      method: 'PATCH',
      body: { contextTokens: 2000 },
    });
    expect(small.status).toBe(200);
    const document = 'Tomatoes need sun. '.repeat(316);
    const file = await upload(server, user, new TextEncoder().encode(document), 'notes.txt', 'text/plain');
    expect(file.status).toBe(201);
    const instructions = 'I grow vegetables on a small balcony. '.repeat(78);
    await as(user, '/api/v1/user/me/instructions', { method: 'PUT', body: { text: instructions } });
    model.script(() => ({ chunks: ['Read.'] }));
    const asked = model.requests.length;
    const response = await fetch(
      `${server.url}/api/v1/topic/${await newTopic(server, user, bots['Code Helper'])}/message`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${user.token}`,
          organization: 'app',
        },
        body: JSON.stringify({ text: 'Read my notes', files: [file.body._id] }),
      },
    );
    expect((await readEvents(response)).at(-1)?.event).toBe('done');
    const sent = model.requests[asked];
    expect(textOf(sent.messages[0].content)).toContain(instructions.trim());
    // 5,700 characters fit alone; with the instructions' 3,000 they do not.
    expect(textOf(sent.messages.at(-1)?.content)).toMatch(
      new RegExp(`truncated="only the first \\d+ of ${document.length} characters fit"`),
    );
  });

  it('refuses bad input with a 4xx naming the field, and saves nothing twice or past the limit', async () => {
    const user = await signUp(server);
    const expectBad = async (answer: { status: number; body: Json }, field?: string) => {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_INPUT');
      if (field) expect(answer.body.field).toBe(field);
    };
    const put = (body: Json) => as(user, '/api/v1/user/me/instructions', { method: 'PUT', body });
    await expectBad(await put({ text: 'x'.repeat(3001) }), 'text');
    await expectBad(await put({}));
    await expectBad(await put({ useMemory: 'yes' }), 'useMemory');
    await expectBad(await put({ text: 'ok', other: 1 }));
    expect((await put({ text: 'x'.repeat(3000) })).status).toBe(200);

    await expectBad(await remember(user, ''), 'text');
    await expectBad(await remember(user, '   '), 'text');
    await expectBad(await remember(user, 'x'.repeat(1001)), 'text');
    await expectBad(await as(user, '/api/v1/memory', { body: {} }), 'text');
    expect((await remember(user, 'Likes jazz.')).status).toBe(201);
    const twice = await remember(user, '  LIKES JAZZ.');
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'MEMORY_EXISTS', field: 'text' });
    const other = (await remember(user, 'Likes blues.')).body;
    const patch = (id: string, body: Json) => as(user, `/api/v1/memory/${id}`, { method: 'PATCH', body });
    await expectBad(await patch(other._id, { text: ' ' }), 'text');
    expect((await patch(other._id, { text: 'likes jazz.' })).status).toBe(409);
    expect((await memories(user)).map((memory) => memory.text)).toEqual(['Likes blues.', 'Likes jazz.']);

    // The model is told why nothing was saved, and goes on.
    model.script(
      toolSteps([
        {
          call: [
            { name: 'remember', arguments: { text: 'Likes jazz.' } },
            { name: 'remember', arguments: {} },
          ],
        },
        { answer: () => 'Ok.' },
      ]),
    );
    const { events } = await reply(user, await newTopic(server, user, bots.Assistant), 'Remember jazz');
    expect(
      stepEvents(events)
        .filter((step) => step.status !== 'running')
        .map((step) => step.error),
    ).toEqual(['This is already in your memory.', 'remember needs the argument "text": a non-empty string.']);

    // At most 200 memories a member.
    await server.app.db.query(
      `insert into memories (tenant, user_id, text, source) select 'app', $1, 'Fact ' || n, 'member'
       from generate_series(1, 198) as n`,
      [user.id],
    );
    const full = await remember(user, 'One too many.');
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('MEMORY_FULL');
    expect(await memories(user)).toHaveLength(200);
  });

  it('keeps memories their member’s own: another member or organization reads, changes and deletes none (0 crossings)', async () => {
    const owner = await signUp(server);
    const other = await signUp(server);
    const outsider = await signUp(server, 'acme');
    const mine = (await remember(owner, 'Owns a red bicycle.')).body;
    await as(owner, '/api/v1/user/me/instructions', {
      method: 'PUT',
      body: { text: 'Secret instructions.' },
    });
    let crossings = 0;
    for (const intruder of [other, outsider]) {
      const attempts = [
        await as(intruder, `/api/v1/memory/${mine._id}`, { method: 'PATCH', body: { text: 'Taken over.' } }),
        await as(intruder, `/api/v1/memory/${mine._id}`, { method: 'DELETE' }),
      ];
      for (const answer of attempts) {
        expect(answer.status).toBe(404);
        if (answer.status < 300) crossings += 1;
      }
      const seen = JSON.stringify([
        await memories(intruder),
        (await as(intruder, '/api/v1/user/me/instructions')).body,
        (await as(intruder, `/api/v1/memory?project=${mine._id}`)).body,
      ]);
      if (seen.includes('bicycle') || seen.includes('Secret')) crossings += 1;
      // Forgetting everything forgets only their own.
      expect((await as(intruder, '/api/v1/memory', { method: 'DELETE' })).body).toEqual({ deleted: 0 });
    }
    // Another organization's token without its header is nobody here.
    expect(
      (await call(server, `/api/v1/memory/${mine._id}`, { method: 'DELETE', token: outsider.token })).status,
    ).toBe(401);
    expect(crossings).toBe(0);
    expect(await memories(owner)).toEqual([mine]);
    expect((await as(owner, '/api/v1/memory', { method: 'DELETE' })).body).toEqual({ deleted: 1 });
    expect(await memories(owner)).toEqual([]);
  });

  /** The prompt library: a member's own prompts and the organization's, who may write which, tenancy. */
  describe('prompts', () => {
    type Caller = { token: string; tenant: string };
    const onPrompt = (user: Caller, path: string, options: { method?: string; body?: Json } = {}) =>
      call(server, `/api/v1/prompt${path}`, { ...options, token: user.token, tenant: user.tenant });
    const list = async (user: Caller) => (await onPrompt(user, '')).body as Json[];
    const commands = async (user: Caller) =>
      (await list(user)).map((prompt: Json) => `${prompt.visibility}:${prompt.command}`);

    it('keeps a member’s prompts: create, list, change, delete; the command cleaned and checked', async () => {
      const user = await signUp(server);
      const made = await onPrompt(user, '', {
        body: {
          command: ' /Translate ',
          title: '  Translate   this ',
          text: ' Translate {{text}} into {{ language }}. ',
        },
      });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({
        _id: expect.any(String),
        command: 'translate',
        title: 'Translate this',
        text: 'Translate {{text}} into {{ language }}.',
        visibility: 'private',
      });
      expect(await list(user)).toEqual([made.body]);

      // The same command again, whatever its case: 409 on the command, nothing written.
      const again = await onPrompt(user, '', { body: { command: 'TRANSLATE', title: 'Again', text: 'Hi' } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        error: 'You have a prompt /translate already: choose another command.',
        code: 'COMMAND_TAKEN',
        field: 'command',
      });
      for (const [body, field, error] of [
        [{ command: 'two words', title: 'T', text: 'x' }, 'command', /letters, digits, - and _/],
        [{ command: '-dash', title: 'T', text: 'x' }, 'command', /starts with a letter or a digit/],
        [{ command: 'x'.repeat(33), title: 'T', text: 'x' }, 'command', /32 characters at most/],
        [{ command: '/', title: 'T', text: 'x' }, 'command', /Write the command/],
        [{ command: 'ok', title: ' ', text: 'x' }, 'title', /fill in title/],
        [{ command: 'ok', title: 'T'.repeat(101), text: 'x' }, 'title', /100 characters/],
        [{ command: 'ok', title: 'T', text: '   ' }, 'text', /Write the prompt/],
        [{ command: 'ok', title: 'T', text: 'x'.repeat(8001) }, 'text', /8,000 characters at most/],
        [{ command: 'ok', title: 'T', text: 'Hello {{ }}' }, 'text', /needs a name/],
        [{ command: 'ok', title: 'T', text: `{{${'n'.repeat(41)}}}` }, 'text', /40 characters/],
        [
          { command: 'ok', title: 'T', text: Array.from({ length: 11 }, (_, i) => `{{p${i}}}`).join(' ') },
          'text',
          /10 placeholders/,
        ],
        [{ command: 'ok', title: 'T', text: 'x', visibility: 'public' }, 'visibility', /not valid|must be/],
        [{ command: 'ok', title: 'T' }, 'text', /fill in text/],
      ] as const) {
        const answer = await onPrompt(user, '', { body });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body.code).toBe('INVALID_INPUT');
        expect(answer.body.field).toBe(field);
        expect(answer.body.error).toMatch(error);
      }
      // Letters of any script.
      const greek = await onPrompt(user, '', {
        body: { command: 'Περίληψη_2', title: 'Σύνοψη', text: 'Σύνοψη' },
      });
      expect(greek.status).toBe(201);
      expect(greek.body.command).toBe('περίληψη_2');

      const changed = await onPrompt(user, `/${made.body._id}`, {
        method: 'PATCH',
        body: { command: 'tr', text: 'Translate {{text}}.' },
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({ ...made.body, command: 'tr', text: 'Translate {{text}}.' });
      const clash = await onPrompt(user, `/${made.body._id}`, {
        method: 'PATCH',
        body: { command: 'περίληψη_2' },
      });
      expect(clash.status).toBe(409);
      expect(clash.body.field).toBe('command');
      expect(await commands(user)).toEqual(['private:tr', 'private:περίληψη_2']);

      expect((await onPrompt(user, `/${made.body._id}`, { method: 'DELETE' })).body).toEqual({
        success: true,
      });
      expect((await onPrompt(user, `/${made.body._id}`, { method: 'DELETE' })).status).toBe(404);
      expect(await commands(user)).toEqual(['private:περίληψη_2']);
    });

    it('lets only admins keep the organization’s prompts; another member’s private prompt is 404', async () => {
      const boss = await member(server, 'app', 'admin');
      const alice = await signUp(server);
      const bob = await signUp(server);
      const outsider = await signUp(server, 'acme');

      // A member cannot make one for the organization, nor turn theirs into one.
      const refused = await onPrompt(alice, '', {
        body: { command: 'standup', title: 'Standup', text: 'x', visibility: 'organization' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.field).toBe('visibility');
      const mine = (await onPrompt(alice, '', { body: { command: 'mine', title: 'Mine', text: 'Alice’s' } }))
        .body;
      expect(
        (await onPrompt(alice, `/${mine._id}`, { method: 'PATCH', body: { visibility: 'organization' } }))
          .status,
      ).toBe(403);

      const shared = await onPrompt(boss, '', {
        body: {
          command: 'standup',
          title: 'Standup',
          text: 'Yesterday {{done}}',
          visibility: 'organization',
        },
      });
      expect(shared.status).toBe(201);
      // One /standup for the organization: a second admin's is refused with its own words.
      const owner = await loginOwner(server, 'app');
      const twice = await onPrompt(owner, '', {
        body: { command: 'standup', title: 'Other', text: 'x', visibility: 'organization' },
      });
      expect(twice.status).toBe(409);
      expect(twice.body.error).toBe(
        'Your organization has a prompt /standup already: choose another command.',
      );
      // A member's own /standup beside the organization's: both listed, their own first.
      const own = await onPrompt(bob, '', {
        body: { command: 'standup', title: 'My standup', text: 'Mine' },
      });
      expect(own.status).toBe(201);
      expect(await commands(bob)).toEqual(['private:standup', 'organization:standup']);
      expect(await commands(alice)).toEqual(['private:mine', 'organization:standup']);

      // Bob sees Alice's private prompt nowhere: 404 to read-modify-delete, her list untouched.
      for (const method of ['PATCH', 'DELETE'])
        expect(
          (
            await onPrompt(bob, `/${mine._id}`, {
              method,
              body: method === 'PATCH' ? { title: 'Taken' } : undefined,
            })
          ).status,
        ).toBe(404);
      // Not even an admin writes another member's private prompt.
      expect(
        (await onPrompt(boss, `/${mine._id}`, { method: 'PATCH', body: { title: 'Taken' } })).status,
      ).toBe(404);
      expect((await onPrompt(boss, `/${mine._id}`, { method: 'DELETE' })).status).toBe(404);
      // A member may not change or delete the organization's.
      expect(
        (await onPrompt(alice, `/${shared.body._id}`, { method: 'PATCH', body: { title: 'Mine now' } }))
          .status,
      ).toBe(403);
      expect((await onPrompt(alice, `/${shared.body._id}`, { method: 'DELETE' })).status).toBe(403);
      // Another admin (the owner) may; only its author makes it private.
      const edited = await onPrompt(owner, `/${shared.body._id}`, {
        method: 'PATCH',
        body: { title: 'Daily standup' },
      });
      expect(edited.status).toBe(200);
      expect(
        (await onPrompt(owner, `/${shared.body._id}`, { method: 'PATCH', body: { visibility: 'private' } }))
          .status,
      ).toBe(403);
      expect((await list(alice)).find((prompt: Json) => prompt._id === shared.body._id).title).toBe(
        'Daily standup',
      );

      // Another organization sees none of it, and reaches none of it.
      expect(await list(outsider)).toEqual([]);
      for (const id of [mine._id, shared.body._id]) {
        expect((await onPrompt(outsider, `/${id}`, { method: 'PATCH', body: { title: 'x' } })).status).toBe(
          404,
        );
        expect((await onPrompt(outsider, `/${id}`, { method: 'DELETE' })).status).toBe(404);
      }
      expect(await commands(alice)).toEqual(['private:mine', 'organization:standup']);

      // An admin no more: the organization's prompt they wrote stays, others' to keep; they may take it back.
      const demoted = await admin(server, owner, `/member/${boss.id}`, {
        method: 'PATCH',
        body: { role: 'member' },
      });
      expect(demoted.status).toBe(200);
      const relogged = await login(server, 'app', boss.email, boss.password);
      expect(
        (await onPrompt(relogged, `/${shared.body._id}`, { method: 'PATCH', body: { title: 'Changed' } }))
          .status,
      ).toBe(403);
      const back = await onPrompt(relogged, `/${shared.body._id}`, {
        method: 'PATCH',
        body: { visibility: 'private' },
      });
      expect(back.status).toBe(200);
      expect(await commands(alice)).toEqual(['private:mine']);
      expect(await commands(relogged)).toEqual(['private:standup']);
    });

    it('answers 401 without a session and keeps 200 prompts at most per member', async () => {
      expect((await call(server, '/api/v1/prompt')).status).toBe(401);
      const user = await signUp(server);
      for (let n = 0; n < 200; n += 1)
        expect((await onPrompt(user, '', { body: { command: `p${n}`, title: 'T', text: 'x' } })).status).toBe(
          201,
        );
      const full = await onPrompt(user, '', { body: { command: 'one-more', title: 'T', text: 'x' } });
      expect(full.status).toBe(409);
      expect(full.body.code).toBe('TOO_MANY_PROMPTS');
      expect((await list(user)).length).toBe(200);
    });
  });
});
