import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdImage, releaseOrphanImages } from '../../../server/billing/images';
import { generatedImagesNote } from '../../../server/replies/engines/openai';
import { call, type Json, signUp, startApp, type TestServer } from '../../support/app';
import {
  imagesOf,
  type OpenAiDouble,
  startOpenAiDouble,
  textOf,
  toolSteps,
} from '../../support/openai-double';
import { readEvents, type ServerSentEvent } from '../../support/sse';
import { type Actor, admin, loginOwner } from '../admin/support';
import { download } from '../files/support';
import { billing, giveTools, newTopic, readTopic, replyText, say, stepEvents } from './support';

const price = 0.5;
const settings = { provider: null, model: 'gpt-image-1', price };

describe('images: generate_image and image bots', () => {
  let server: TestServer;
  let model: OpenAiDouble;
  let owner: Actor;
  let assistant: string;
  let painter: string;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({ OPENAI_BASE_URL: model.url });
    owner = await loginOwner(server, 'app');
    const bots = (await admin(server, owner, '/bot')).body as { _id: string; name: string }[];
    assistant = bots.find((bot) => bot.name === 'Assistant')?._id as string;
    await giveTools(server, 'app', assistant, ['generate_image']);
    expect(
      (await admin(server, owner, `/bot/${assistant}`, { method: 'PATCH', body: { vision: true } })).status,
    ).toBe(200);
    const made = await admin(server, owner, '/bot', {
      body: {
        name: owner.encrypt('Painter'),
        description: 'Draws',
        platform: 'image',
        price: 0,
        categories: [],
        active: true,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    painter = made.body._id;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  const imageCharges = (transactions: Json[]) =>
    transactions.filter((transaction) => transaction.description === 'Image (gpt-image-1)');
  const done = (events: ServerSentEvent[]) => events.find((event) => event.event === 'done')?.data as Json;

  it('admin settings: images validated and audited; members learn only whether images are available', async () => {
    const before = await admin(server, owner, '/settings');
    expect(before.body.images).toBeNull();
    expect((await call(server, '/api/v1/organization/app')).body.images).toBe(false);
    const refused = [
      [{ ...settings, price: -1 }, 400],
      [{ ...settings, model: '  ' }, 400, 'images.model'],
      [{ ...settings, provider: 'no-such-provider' }, 404, 'images.provider'],
      [{ provider: null, model: 'x' }, 400],
    ] as const;
    for (const [images, status, field] of refused) {
      const answer = await admin(server, owner, '/settings', { method: 'PATCH', body: { images } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (field) expect(answer.body.field).toBe(field);
    }
    // An image bot has nothing of a model bot's.
    for (const [field, value] of [
      ['model', 'gpt-4o'],
      ['tools', ['calculator']],
      ['vision', true],
    ] as const) {
      const answer = await admin(server, owner, `/bot/${painter}`, {
        method: 'PATCH',
        body: { [field]: value },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.field).toBe(field);
    }
    // Before any settings, generate_image and image bots say so, and nothing is charged.
    const user = await signUp(server);
    const topic = await newTopic(server, user, painter);
    const events = await say(server, user, topic, 'a lighthouse');
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { error: 'Image generation is not set up in this organization.', code: 'IMAGE_FAILED' },
    });

    const set = await admin(server, owner, '/settings', { method: 'PATCH', body: { images: settings } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.images).toEqual(settings);
    const { rows } = await server.app.db.query<{ before: Json; after: Json }>(
      `select before, after from audit_log where tenant = 'app' and action = 'settings.update' order by at desc limit 1`,
    );
    expect(rows[0].before.images).toBeNull();
    expect(rows[0].after.images).toEqual(settings);
    const organization = await call(server, '/api/v1/organization/app');
    expect(organization.body.images).toBe(true);
    expect(JSON.stringify(organization.body)).not.toContain('gpt-image-1');
  });

  it('generate_image: the image is stored as the reply’s file, charged once, private to its member, shown to a vision model later', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, assistant);
    const asked = { prompt: 'A red fox in the snow', size: '1536x1024' };
    // The model asks the same image twice: one generation, one charge, one file.
    model.script(
      toolSteps([
        { call: [{ name: 'generate_image', arguments: asked }] },
        { call: [{ name: 'generate_image', arguments: asked }] },
        { answer: () => 'Here is your fox.' },
      ]),
    );
    const generations = model.imageRequests.length;
    const start = await billing(server, user);
    const events = await say(server, user, topic, 'Draw me a fox');
    expect(replyText(events)).toContain('Here is your fox.');
    expect(model.imageRequests.length).toBe(generations + 1);
    expect(model.imageRequests.at(-1)).toEqual({
      model: 'gpt-image-1',
      prompt: asked.prompt,
      n: 1,
      size: asked.size,
      response_format: 'b64_json',
    });
    const finished = done(events);
    expect(finished.files).toEqual([
      {
        _id: expect.any(String),
        name: 'A red fox in the snow.png',
        type: 'image/png',
        size: expect.any(Number),
      },
    ]);
    const file = finished.files[0];
    const steps = stepEvents(events).filter((step) => step.status === 'done');
    expect(steps).toHaveLength(2);
    for (const step of steps)
      expect(JSON.parse(step.result)).toMatchObject({ _id: file._id, type: 'image/png' });

    // Billed once: the image's price beside the reply's.
    const after = await billing(server, user);
    expect(imageCharges(after.transactions)).toHaveLength(1);
    expect(after.balance).toBeCloseTo(start.balance - price - finished.cost, 4);
    expect(after.reserved).toBe(0);

    // The reply carries it in the conversation, and its member downloads it: a real PNG.
    const stored = await readTopic(server, user, topic);
    const reply = stored.messages.find((message: Json) => message._id === finished.botMessageId);
    expect(reply.files).toEqual([file]);
    const content = await download(server, user, file._id);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/png');
    // Another member of the organization does not find it.
    const other = await signUp(server);
    expect((await download(server, other, file._id)).status).toBe(404);
    expect((await call(server, `/api/v1/file/${file._id}`, { token: other.token })).status).toBe(404);

    // The next message: the vision model is shown the image after the reply that made it.
    model.script(() => ({ chunks: ['A fox, indeed.'] }));
    await say(server, user, topic, 'What did you draw?');
    const messages = model.requests.at(-1)?.messages ?? [];
    const shownAt = messages.findIndex((message) => textOf(message.content) === generatedImagesNote);
    expect(shownAt).toBeGreaterThan(0);
    expect(messages[shownAt - 1]).toMatchObject({ role: 'assistant', content: 'Here is your fox.' });
    expect(messages[shownAt].role).toBe('user');
    expect(imagesOf(messages[shownAt].content)).toEqual([
      `data:image/png;base64,${content.bytes.toString('base64')}`,
    ]);
  });

  it('a reply continued after it failed asks the same image again: the one drawn is given back, not drawn or charged twice', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, assistant);
    const asked = { prompt: 'A lighthouse at night' };
    let broken = true;
    model.script((request) => {
      if (request.messages.at(-1)?.role !== 'tool')
        return { chunks: [], toolCalls: [{ name: 'generate_image', arguments: asked }] };
      if (broken) {
        broken = false;
        return { chunks: ['The model server broke.'], status: 500 };
      }
      return { chunks: ['Your lighthouse.'] };
    });
    const generations = model.imageRequests.length;
    const failed = await say(server, user, topic, 'Draw a lighthouse');
    const ended = failed.at(-1) as ServerSentEvent;
    expect(ended).toMatchObject({ event: 'error', data: { botMessageId: expect.any(String) } });
    const response = await fetch(
      `${server.url}/api/v1/topic/${topic}/message/${ended.data.botMessageId}/continue`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${user.token}`,
          organization: 'app',
        },
        body: '{}',
      },
    );
    const events = await readEvents(response);
    expect(replyText(events)).toContain('Your lighthouse.');
    expect(model.imageRequests.length).toBe(generations + 1);
    const files = done(events).files as Json[];
    expect(files).toHaveLength(1);
    const steps = stepEvents(events).filter((step) => step.status === 'done');
    expect(JSON.parse(steps.at(-1)?.result)._id).toBe(files[0]._id);
    expect(imageCharges((await billing(server, user)).transactions)).toHaveLength(1);
  });

  it('nothing is charged when the image fails, hangs, or answers a private address (the SSRF guard)', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, assistant);
    const start = await billing(server, user);
    model.script(
      toolSteps([
        { call: { name: 'generate_image', arguments: { prompt: 'a cat' } } },
        { answer: () => 'Sorry.' },
      ]),
    );
    model.scriptImages(() => ({ status: 500, message: 'The image model is overloaded.' }));
    const failed = await say(server, user, topic, 'Draw a cat');
    expect(stepEvents(failed).at(-1)).toMatchObject({
      status: 'error',
      error: 'The image service refused the request (HTTP 500): The image model is overloaded.',
    });
    expect(done(failed).files).toBeUndefined();
    // A server answering a URL on a private address: refused, never fetched.
    model.scriptImages(() => ({ as: 'url' }));
    const refused = await say(server, user, topic, 'Draw a cat again');
    expect(stepEvents(refused).at(-1)?.error).toMatch(/private network/);
    // A size OpenAI does not make is the model's to fix: the service is not asked.
    const asked = model.imageRequests.length;
    model.script(
      toolSteps([
        { call: { name: 'generate_image', arguments: { prompt: 'a cat', size: '10x10' } } },
        { answer: () => 'Sorry.' },
      ]),
    );
    const badSize = await say(server, user, topic, 'Draw a tiny cat');
    expect(stepEvents(badSize).at(-1)?.error).toBe(
      'generate_image: the size must be one of 1024x1024, 1024x1536, 1536x1024, auto.',
    );
    expect(model.imageRequests.length).toBe(asked);
    model.script(
      toolSteps([
        { call: { name: 'generate_image', arguments: { prompt: 'a slow cat' } } },
        { answer: () => 'Sorry.' },
      ]),
    );
    // A service that hangs: a clear error once the time is up, never a stuck reply.
    model.scriptImages(() => ({ delayMs: 2000 }));
    server.app.config.imageTimeoutMs = 300;
    let hung: ServerSentEvent[];
    try {
      hung = await say(server, user, topic, 'Draw a slow cat');
    } finally {
      server.app.config.imageTimeoutMs = 120_000;
    }
    expect(stepEvents(hung).at(-1)?.error).toBe('The image service did not answer within 0.3 s.');
    model.scriptImages(() => ({}));
    const after = await billing(server, user);
    expect(imageCharges(after.transactions)).toEqual([]);
    expect(after.reserved).toBe(0);
    const replies = [failed, refused, badSize, hung].reduce((sum, events) => sum + done(events).cost, 0);
    expect(after.balance).toBeCloseTo(start.balance - replies, 4);
    const { rows } = await server.app.db.query(
      `select 1 from message_files mf join messages m on m.id = mf.message_id where m.topic_id = $1`,
      [topic],
    );
    expect(rows).toEqual([]);
  });

  it('takes an image answered as a url, fetched through the guard (the operator allowing the double’s loopback)', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, painter);
    model.scriptImages(() => ({ as: 'url' }));
    server.app.config.allowPrivateProviderUrls = true;
    try {
      const events = await say(server, user, topic, 'a windmill');
      const [file] = done(events).files as Json[];
      expect(model.imageRequests.at(-1)?.response_format).toBe('b64_json');
      const content = await download(server, user, file._id);
      expect(content.headers.get('content-type')).toBe('image/png');
      expect(file.size).toBe(content.bytes.length);
    } finally {
      server.app.config.allowPrivateProviderUrls = false;
      model.scriptImages(() => ({}));
    }
  });

  it('an image bot answers every message with one image: a failure is free, a retry is charged once', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, painter);
    const start = await billing(server, user);
    model.scriptImages(() => ({ status: 400, message: 'Your request was rejected by the safety system.' }));
    const failed = await say(server, user, topic, 'a harbour at dawn');
    expect(failed.at(-1)).toMatchObject({
      event: 'error',
      data: { code: 'IMAGE_FAILED', error: expect.stringContaining('rejected by the safety system') },
    });
    expect((await billing(server, user)).balance).toBe(start.balance);
    model.scriptImages(() => ({ revisedPrompt: 'A quiet harbour at dawn, boats in mist' }));
    const events = await say(server, user, topic, 'a harbour at dawn');
    expect(replyText(events)).toBe('A quiet harbour at dawn, boats in mist');
    const finished = done(events);
    expect(finished.files).toHaveLength(1);
    expect(finished.steps).toHaveLength(1);
    const after = await billing(server, user);
    expect(imageCharges(after.transactions)).toHaveLength(1);
    expect(after.balance).toBeCloseTo(start.balance - price, 4);
  });

  it('the hold of an image whose reply ended meanwhile (cut off, stopped) is given back by the sweep', async () => {
    const user = await signUp(server);
    const topic = await newTopic(server, user, painter);
    const reply = done(await say(server, user, topic, 'a kite'));
    const start = await billing(server, user);
    const owner = { tenant: 'app', userId: user.id };
    const hold = await holdImage(server.app.db, owner, { messageId: reply.botMessageId, key: 'k', price });
    expect(hold).toEqual({ id: expect.any(String) });
    expect((await billing(server, user)).reserved).toBe(price);
    expect(await releaseOrphanImages(server.app.db)).toBe(1);
    const after = await billing(server, user);
    expect(after.reserved).toBe(0);
    expect(after.balance).toBe(start.balance);
  });

  it('20 images at once against a balance for exactly 3: three are drawn and charged, the others refused, nothing left held', async () => {
    const user = await signUp(server);
    await server.app.db.query('update users set balance = $2 where id = $1', [user.id, 3 * price]);
    const topics = await Promise.all(Array.from({ length: 20 }, () => newTopic(server, user, painter)));
    const outcomes = await Promise.all(topics.map((topic, n) => say(server, user, topic, `picture ${n}`)));
    const drawn = outcomes.filter((events) => done(events));
    expect(drawn).toHaveLength(3);
    for (const events of outcomes.filter((events) => !done(events)))
      expect(events.at(-1)?.data.error).toBe('Insufficient balance');
    const after = await billing(server, user);
    expect(after.balance).toBe(0);
    expect(after.reserved).toBe(0);
    expect(imageCharges(after.transactions)).toHaveLength(3);
  });
});
