import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplePrompts } from '../../../src/chat/examplePrompts';
import { botIds, call, postMessage, signUp, startApp, type TestServer } from '../../support/app';
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

  const chat = async (user: User, bot: string, botId = bots[bot]) => {
    const topic = (
      await call(server, '/api/v1/topic', { token: user.token, tenant: user.tenant, body: { bot: botId } })
    ).body._id;
    return async (text: string) => {
      const response = await postMessage(server, user, topic, { text });
      const events = await readEvents(response);
      const text_ = events
        .filter((event) => event.event === 'token')
        .map((event) => event.data.text)
        .join('');
      return { text: text_, last: events.at(-1) };
    };
  };

  /** What a bot says when it cannot help: none of it answers a prompt the bot suggests itself. */
  const fallbacks = [
    /^Without a translation provider/,
    /^Tell me what to translate/,
    /^I don't know the language/,
    /^I have no documents/,
    /^Nothing in the documents/,
    /^I can't calculate/,
    /Rounded to \d+ digits/,
    // ELIZA's answers to what she has no rule for.
    /^(I'm not sure I understand you fully|Please go on|What does that suggest to you|Do you feel strongly about discussing such things)/,
  ];

  it.each(['app', 'acme'])(
    'answers every prompt a bot of %s suggests usefully, offline, at the price its card shows',
    async (tenant) => {
      const user = await signUp(server, tenant);
      // The catalogue shows the active bots (the model bots are off without a model server).
      const catalogue = (await call(server, '/api/v1/bot', { token: user.token, tenant })).body.filter(
        (bot: { active: boolean }) => bot.active,
      );
      const asked: string[] = [];
      for (const bot of catalogue) {
        for (const prompt of examplePrompts(bot)) {
          const { text, last } = await (await chat(user, bot.name, bot._id))(prompt);
          asked.push(`${bot.name}: ${prompt}`);
          expect(last, `${bot.name}: ${prompt}`).toMatchObject({ event: 'done', data: { cost: bot.price } });
          for (const fallback of fallbacks) expect(text, `${bot.name}: ${prompt}`).not.toMatch(fallback);
          // What "useful" means for each of them.
          if (bot.name === 'Calculator') expect(text).toMatch(/^`.+` = \*\*-?\d+(\.\d+)?\*\*$/);
          if (bot.name === 'Translator') expect(text).not.toMatch(/translate|:/i);
          if (bot.name === 'Librarian') {
            expect(text).toMatch(/^Here is what I found:\n\n> .+ \[1\]/);
            expect(last?.data.citations).toContainEqual(
              expect.objectContaining({ n: 1, name: expect.stringMatching(/\.md$/) }),
            );
          }
        }
      }
      // Every built-in bot was asked.
      expect(catalogue.map((bot: { name: string }) => bot.name).sort()).toEqual([
        'Calculator',
        'ELIZA',
        'Librarian',
        'Translator',
      ]);
      expect(asked).toHaveLength(12);
    },
  );

  it('answers the calculator prompt 2^64 exactly, and the Librarian its questions from the guide', async () => {
    const user = await signUp(server);
    expect((await (await chat(user, 'Calculator'))('2^64')).text).toBe('`2^64` = **18446744073709551616**');
    const librarian = await chat(user, 'Librarian');
    const shared = await librarian('How do I share a conversation?');
    expect(shared.text).toContain('Sources: [1] *Sharing.md*');
    expect(shared.text).toContain('**Share**');
    expect((await librarian('How do I attach a file?')).text).toContain('[1] *Attaching files.md*');
    expect((await librarian('Which languages does Parley speak?')).text).toContain('[1] *Languages.md*');
  });

  it('translates phrases of its own screens between the built-in languages, offline and free', async () => {
    const user = await signUp(server);
    const say = await chat(user, 'Translator');
    expect(await say('translate to German: Log in')).toMatchObject({
      text: 'Anmelden',
      last: { data: { cost: 0 } },
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
    expect(hint.text).toMatch(/translate to German: Welcome to Parley/);
    expect(hint.last).toMatchObject({ event: 'done', data: { cost: 0, balance: 10 } });
    const unknown = await say('translate to Klingon: hello');
    expect(unknown.last).toMatchObject({ data: { cost: 0 } });
    const billing = await call(server, `/payment/billing-info/${user.id}`, { token: user.token });
    expect(billing.body).toMatchObject({ balance: 10, reserved: 0 });
    expect(billing.body.transactions).toHaveLength(1);
  });

  it('shows whole numbers with every digit, decimals to 15 significant digits, and every digit when asked', async () => {
    const user = await signUp(server);
    const say = await chat(user, 'Calculator');
    expect((await say('0.1 + 0.2')).text).toBe('`0.1 + 0.2` = **0.3**');
    expect((await say('80/3')).text).toBe(
      '`80/3` ≈ **26.6666666666667**\n\n*Rounded to 15 digits: write “exact 80/3” for all of them.*',
    );
    expect((await say('exact 80/3')).text).toBe('`80/3` = **26.66666666666666666666666666666666666667…**');
    expect((await say('2^100')).text).toBe('`2^100` = **1267650600228229401496703205376**');
    expect((await say('exactly: 2^100')).text).toBe('`2^100` = **1267650600228229401496703205376**');
    // Whole numbers are BigInts, exact at any size, up to 10,000 digits.
    const big = (await say('99^1000 * 99^1000')).text;
    expect(big).toMatch(/^`99\^1000 \* 99\^1000` = \*\*1863756602\d{3982}\*\*$/);
    expect(big.endsWith('0001**')).toBe(true);
    expect((await say('2^64 * 1.5')).text).toBe('`2^64 * 1.5` = **27670116110564327424**');
    expect((await say('-7 % 3')).text).toBe('`-7 % 3` = **-1**');
    expect((await say('(10^1000)^1000')).text).toBe(
      "I can't calculate that: The result has more than 10,000 digits.",
    );
    // A decimal rounded into its whole part shows an exponent, not made-up zeros.
    expect((await say('2^64 + 0.5')).text).toContain('≈ **1.84467440737096e+19**');
    expect((await say('123456789012345')).text).toBe('`123456789012345` = **123456789012345**');
  });
});
