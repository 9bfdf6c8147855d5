import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { piecesOf } from '../../../server/translation/pieces';
import { call, signUp, startApp, type TestServer } from '../../support/app';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../../support/openai-double';

describe('POST /api/v1/translate is open for the catalogs only', () => {
  let model: OpenAiDouble;
  let server: TestServer;

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startApp({
      OPENAI_BASE_URL: model.url,
      RATE_LIMIT_TRANSLATE_PER_USER_PER_MINUTE: '3',
      TRANSLATION_MEMORY_SIZE: '2',
    });
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  const translate = (text: string, token?: string, language = 'fr') =>
    call(server, '/api/v1/translate', { token, body: { text, language } });

  it('answers built-in catalog strings to anyone, without the provider', async () => {
    const asked = model.requests.length;
    expect((await translate('Log in', undefined, 'de')).body).toEqual({ text: 'Anmelden', translated: true });
    expect(model.requests.length).toBe(asked);
  });

  it('needs a token for anything that would reach the provider, and limits each user', async () => {
    const anonymous = await translate('A sentence no catalog has.');
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    const user = await signUp(server);
    model.script((request) => ({ chunks: [`FR ${textOf(request.messages.at(-1)?.content)}`] }));
    const statuses: number[] = [];
    for (const text of ['one new text', 'two new texts', 'three new texts', 'four new texts'])
      statuses.push((await translate(text, user.token)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await translate('five new texts', user.token);
    expect(limited.body.error).toMatch(/^Too many translations\. Try again in \d+ seconds\.$/);
    // Another user has a limit of their own.
    const other = await signUp(server);
    expect((await translate('a text of my own', other.token)).status).toBe(200);
  });

  it('says the organization can translate messages: a provider is configured', async () => {
    expect((await call(server, '/api/v1/organization/app')).body).toMatchObject({ messageTranslation: true });
  });

  it('translates a long text in pieces of at most 2,000 characters, cut between sentences, code kept', async () => {
    const user = await signUp(server);
    const sentence = (n: number) => `Sentence number ${n} says a little more about the weather today. `;
    const paragraph = (from: number, count: number) =>
      Array.from({ length: count }, (_, at) => sentence(from + at))
        .join('')
        .trim();
    const code = '```ts\nconst greeting = "Sentence number 0";\n\nconsole.log(greeting);\n```';
    // Paragraphs of about 1,300 and 2,600 characters (the second cut inside), a code block, a list.
    const text = `${paragraph(1, 20)}\n\n${code}\n\n${paragraph(21, 40)}\n\n- one item\n- another item\n`;
    expect(text.length).toBeGreaterThan(3500);
    model.script((request) => ({ chunks: [`«${textOf(request.messages.at(-1)?.content)}»`] }));
    const asked = model.requests.length;
    const answer = await translate(text, user.token, 'de');
    expect(answer).toMatchObject({ status: 200, body: { translated: true } });
    const pieces = model.requests.slice(asked).map((request) => textOf(request.messages.at(-1)?.content));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(2000);
      // Whole sentences or list items: each piece starts one and ends one.
      expect(piece).toMatch(/^(Sentence number \d+|- one item)/);
      expect(piece).toMatch(/(\.|another item)$/);
      expect(piece).not.toContain('const greeting');
    }
    // Each piece translated, in its place, with the code and the white space between them as they were.
    expect(answer.body.text).toContain(`\n\n${code}\n\n`);
    expect(answer.body.text.replace(/[«»]/g, '')).toBe(text);
    expect(answer.body.text.match(/«/g)).toHaveLength(pieces.length);
  });

  it('translates a piece too long for the memory (over 2,704 bytes in UTF-8) without remembering it', async () => {
    const user = await signUp(server);
    // 1,000 different ideographs: 3,000 bytes that no compression brings under the index's limit.
    const text = Array.from({ length: 1000 }, (_, at) =>
      String.fromCharCode(0x4e00 + ((at * 7919) % 20000)),
    ).join('');
    model.script((request) => ({ chunks: [`«${textOf(request.messages.at(-1)?.content)}»`] }));
    expect((await translate(text, user.token, 'de')).body).toEqual({ text: `«${text}»`, translated: true });
    const { rows } = await server.app.db.query('select 1 from translations where text = $1', [text]);
    expect(rows).toEqual([]);
  });

  it('refuses texts over 50,000 characters with 413, logged in or not', async () => {
    const user = await signUp(server);
    const long = 'a '.repeat(25_001);
    expect((await translate(long)).status).toBe(413);
    expect(await translate(long, user.token)).toMatchObject({
      status: 413,
      body: { code: 'TEXT_TOO_LONG', error: 'A text to translate has at most 50,000 characters.' },
    });
  });

  it('keeps the translation memory to its size, least recently used out first', async () => {
    await server.app.db.query('delete from translations');
    const user = await signUp(server);
    for (const text of ['first', 'second']) await translate(text, user.token, 'it');
    // `first` was used a minute ago, `second` just now: `first` is the least recently used.
    await server.app.db.query(
      "update translations set used_at = now() - interval '2 minutes' where text = 'first'",
    );
    await translate('third', user.token, 'it');
    const { rows } = await server.app.db.query<{ text: string }>(
      'select text from translations order by text',
    );
    expect(rows.map((row) => row.text)).toEqual(['second', 'third']);
  });
});

describe('the pieces a long text is translated in', () => {
  const texts = (pieces: ReturnType<typeof piecesOf>) => pieces.map((piece) => piece.text);

  it('keeps white space and fenced code out of the pieces, and gives the text back whole', () => {
    const text = '  Hello there.\n\n~~~\nkeep me\n\nas I am\n~~~\nBye.\n\n```\nnever closed\n';
    const pieces = piecesOf(text, 2000);
    expect(pieces).toEqual([
      { text: '  ', translate: false },
      { text: 'Hello there.', translate: true },
      { text: '\n\n~~~\nkeep me\n\nas I am\n~~~\n', translate: false },
      { text: 'Bye.', translate: true },
      { text: '\n\n```\nnever closed\n', translate: false },
    ]);
    expect(texts(pieces).join('')).toBe(text);
  });

  it('cuts a sentence at words, and a word longer than the limit between characters, never inside one', () => {
    expect(texts(piecesOf('one two three four', 9))).toEqual(['one two', ' ', 'three', ' ', 'four']);
    const emoji = '😀'.repeat(5);
    const pieces = texts(piecesOf(emoji, 3));
    expect(pieces).toEqual(['😀', '😀', '😀', '😀', '😀']);
  });
});
