import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds, call, signUp, startApp, type TestServer } from '../../support/app';
import { readEvents } from '../../support/sse';

type User = Awaited<ReturnType<typeof signUp>>;

/** The offline bots with no provider configured: they do what they say, and say what they cannot. */
describe('built-in bots without any provider', () => {
  let server: TestServer;
  let bots: Record<string, string>;

  beforeAll(async () => {
    server = await startApp();
    bots = await botIds(server);
  });
  afterAll(() => server.close());

  const chat = async (user: User, bot: string) => {
    const topic = (await call(server, '/api/v1/topic', { token: user.token, body: { bot: bots[bot] } })).body
      ._id;
    return async (text: string) => {
      const response = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: JSON.stringify({ text }),
      });
      const events = await readEvents(response);
      const text_ = events
        .filter((event) => event.event === 'token')
        .map((event) => event.data.text)
        .join('');
      return { text: text_, last: events.at(-1) };
    };
  };

  it('translates phrases of its own screens between the built-in languages, offline and charged', async () => {
    const user = await signUp(server);
    const say = await chat(user, 'Translator');
    expect(await say('translate to German: Log in')).toMatchObject({
      text: 'Anmelden',
      last: { data: { cost: 0.02 } },
    });
    // German to French, through the catalogs' shared English.
    expect((await say('translate to French: anmelden')).text).toBe('Se connecter');
    expect((await say('translate to English: Se connecter')).text).toBe('Log in');
  });

  it('says plainly that other text needs a provider, and never charges for it or for hints', async () => {
    const user = await signUp(server);
    const say = await chat(user, 'Translator');
    const other = await say('translate to German: the weather is lovely today');
    expect(other.text).toMatch(
      /^Without a translation provider I can only translate the phrases of Parley's own screens/,
    );
    expect(other.last).toMatchObject({ event: 'done', data: { cost: 0, balance: 10 } });
    const hint = await say('please translate something');
    expect(hint.text).toMatch(/translate to German: good morning/);
    expect(hint.last).toMatchObject({ event: 'done', data: { cost: 0, balance: 10 } });
    const unknown = await say('translate to Klingon: hello');
    expect(unknown.last).toMatchObject({ data: { cost: 0 } });
    const billing = await call(server, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body).toMatchObject({ balance: 10, reserved: 0 });
    expect(billing.body.transactions).toHaveLength(1);
  });

  it('shows results to 15 significant digits, and every digit when asked', async () => {
    const user = await signUp(server);
    const say = await chat(user, 'Calculator');
    expect((await say('0.1 + 0.2')).text).toBe('`0.1 + 0.2` = **0.3**');
    expect((await say('80/3')).text).toBe(
      '`80/3` ≈ **26.6666666666667**\n\n*Rounded to 15 digits: write “exact 80/3” for all of them.*',
    );
    expect((await say('exact 80/3')).text).toBe('`80/3` = **26.66666666666666666666666666666666666667…**');
    expect((await say('2^100')).text).toContain('≈ **1.26765060022823e+30**');
    expect((await say('exactly: 2^100')).text).toBe('`2^100` = **1267650600228229401496703205376**');
    expect((await say('123456789012345')).text).toBe('`123456789012345` = **123456789012345**');
  });
});
