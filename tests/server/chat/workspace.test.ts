import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, signUp, startApp, type TestServer } from '../../support/app';
import { readEvents } from '../../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;

describe('the conversation list: pages, search and export', () => {
  let server: TestServer;
  let bots: Record<string, string>;

  beforeAll(async () => {
    server = await startApp();
    bots = await botIds(server);
  });
  afterAll(() => server.close());

  const chat = async (user: User, bot: string, texts: string[], tenant?: string) => {
    const topic = await call(server, '/api/v1/topic', {
      token: user.token,
      tenant,
      body: { bot: bots[bot] },
    });
    for (const text of texts) {
      const response = await fetch(`${server.url}/api/v1/topic/${topic.body._id}/message`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${user.token}`,
          ...(tenant ? { organization: tenant } : {}),
        },
        body: JSON.stringify({ text }),
      });
      expect((await readEvents(response)).at(-1)?.event).toBe('done');
    }
    return topic.body._id as string;
  };

  it('pages with a cursor, newest first, and keeps the plain array without one', async () => {
    const user = await signUp(server);
    const ids: string[] = [];
    for (let index = 0; index < 7; index += 1) ids.push(await chat(user, 'Calculator', [`${index} + 1`]));
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await call(server, `/api/v1/topic?limit=3&cursor=${cursor}`, { token: user.token });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((item: { _id: string }) => item._id));
      if (!page.body.next) break;
      cursor = page.body.next;
    }
    expect(seen).toEqual([...ids].reverse());
    const plain = await call(server, '/api/v1/topic', { token: user.token });
    expect(Array.isArray(plain.body)).toBe(true);
    expect(plain.body[0]).toMatchObject({ _id: ids[6], streaming: false, bot: { name: 'Calculator' } });
    // The preview is plain text: the calculator's markdown is gone.
    expect(plain.body[0].preview).toBe('6 + 1 = 7');
    expect((await call(server, '/api/v1/topic?cursor=%%%', { token: user.token })).status).toBe(400);
    expect((await call(server, '/api/v1/topic?limit=0', { token: user.token })).status).toBe(400);
  });

  it('finds conversations by a word of a reply, case- and accent-insensitively, with a snippet', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    const mother = await chat(user, 'ELIZA', ['My mother takes care of me.']);
    await chat(user, 'Calculator', ['2 * 21']);
    await chat(other, 'ELIZA', ['My mother takes care of me.']);
    const accents = await chat(user, 'ELIZA', ['Le café était crème brûlée.']);

    // ELIZA asks who else in "your family" takes care of you; the user never wrote "family".
    const family = await call(server, '/api/v1/topic?q=FAMIL', { token: user.token });
    expect(family.body.items.map((item: { _id: string }) => item._id)).toEqual([mother]);
    const [hit] = family.body.items;
    expect(hit.snippet.text.toLowerCase()).toContain('family');
    const [from, to] = hit.snippet.highlights[0];
    expect(hit.snippet.text.slice(from, to).toLowerCase()).toBe('family');

    const cafe = await call(server, '/api/v1/topic?q=cafe%20BRULEE', { token: user.token });
    expect(cafe.body.items.map((item: { _id: string }) => item._id)).toEqual([accents]);
    expect(cafe.body.items[0].snippet.text).toContain('café');

    // Only the user's own conversations, and nothing for words nobody wrote.
    const mine = await call(server, '/api/v1/topic?q=mother', { token: user.token });
    expect(mine.body.items.map((item: { _id: string }) => item._id)).toEqual([mother]);
    expect((await call(server, '/api/v1/topic?q=zebra', { token: user.token })).body).toEqual({
      items: [],
      next: null,
    });
    // A blank search is the plain list, paged.
    expect((await call(server, '/api/v1/topic?q=%20', { token: user.token })).body.items).toHaveLength(3);
  });

  it('finds a conversation by its title and ranks it first', async () => {
    const user = await signUp(server);
    await chat(user, 'ELIZA', ['Hello there.', 'I like planning holidays.']);
    const renamed = await chat(user, 'ELIZA', ['Nothing to see here.']);
    await call(server, `/api/v1/topic/${renamed}`, {
      method: 'PATCH',
      token: user.token,
      body: { title: 'Holiday plans' },
    });
    const found = await call(server, '/api/v1/topic?q=holiday', { token: user.token });
    expect(found.body.items).toHaveLength(2);
    expect(found.body.items[0]._id).toBe(renamed);
  });

  it('exports a conversation as Markdown or JSON, to its owner only', async () => {
    const user = await signUp(server);
    const stranger = await signUp(server);
    const topic = await chat(user, 'ELIZA', ['Men are all alike.', "They're always bugging us."]);
    await call(server, `/api/v1/topic/${topic}`, {
      method: 'PATCH',
      token: user.token,
      body: { title: 'Our talk' },
    });
    const markdown = await call(server, `/api/v1/topic/${topic}/export?format=md`, { token: user.token });
    expect(markdown.headers.get('content-type')).toContain('text/markdown');
    expect(markdown.headers.get('content-disposition')).toBe('attachment; filename="Our-talk.md"');
    const text = markdown.body as string;
    expect(text.startsWith('# Our talk\n')).toBe(true);
    expect(text.match(/^## You · /gm)).toHaveLength(2);
    expect(text.match(/^## ELIZA · /gm)).toHaveLength(2);
    expect(text).toContain('Men are all alike.');
    expect(text).toContain('In what way?');

    const json = await call(server, `/api/v1/topic/${topic}/export?format=json`, { token: user.token });
    expect(json.body.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'bot',
      'user',
      'bot',
    ]);
    expect(
      (await call(server, `/api/v1/topic/${topic}/export?format=md`, { token: stranger.token })).status,
    ).toBe(404);
    const acme = await signUp(server, 'acme');
    expect(
      (await call(server, `/api/v1/topic/${topic}/export`, { token: acme.token, tenant: 'acme' })).status,
    ).toBe(404);
    expect(
      (await call(server, `/api/v1/topic/${topic}/export?format=pdf`, { token: user.token })).status,
    ).toBe(400);
  });
});
