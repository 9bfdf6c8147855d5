import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('refuses texts over 2,000 characters with 413, logged in or not', async () => {
    const user = await signUp(server);
    const long = 'a'.repeat(2001);
    expect((await translate(long)).status).toBe(413);
    expect(await translate(long, user.token)).toMatchObject({ status: 413, body: { code: 'TEXT_TOO_LONG' } });
    expect((await translate('b'.repeat(2000), user.token)).status).toBe(200);
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
