import type { Db } from '../../server/db/database';
import { replyContext } from '../../server/replies/context';
import { upload } from '../../tests/server/files/support';
import { ask, filler, makePages } from '../../tests/server/knowledge/support';
import { call, signUp, startApp } from '../../tests/support/app';
import { startOpenAiDouble } from '../../tests/support/openai-double';
import { loadLine, ms, percentile } from './stats';

const rounds = 40;
const pages = 20;
const question = 'How many days of paid leave does an employee have?';

/**
 * What a project adds to a reply of a model bot: its context (instructions of 2,000 characters and a
 * file of `pages` pages searched for the message) built alone, in time and SQL statements, and whole
 * replies through the chat route, with and without the project (the model double answers at once).
 */
export async function printProjectFigures(): Promise<void> {
  const model = await startOpenAiDouble();
  model.script(() => ({ chunks: ['Twenty-eight.'] }));
  const server = await startApp({ OPENAI_BASE_URL: model.url, STARTING_BALANCE: '1000000' });
  try {
    const user = await signUp(server);
    const pdf = await makePages(
      Array.from({ length: pages }, (_, n) =>
        n === pages - 2
          ? `Holidays: every employee has twenty-eight days of paid leave a year. ${filler(400, n)}`
          : `Page ${n + 1} of the handbook. ${filler(400, n)}`,
      ),
    );
    const file = (await upload(server, user, pdf, 'handbook.pdf', 'application/pdf')).body._id;
    const project = (
      await call(server, '/api/v1/project', {
        token: user.token,
        body: { name: user.encrypt('Bench'), instructions: 'Answer briefly. '.repeat(125), files: [file] },
      })
    ).body._id as string;
    const { rows } = await server.app.db.query<{
      id: string;
      platform: string;
      config: Record<string, unknown>;
    }>("select id, platform, config from bots where tenant = 'app' and name = 'Assistant'");
    const bot = rows[0];
    const status = async () =>
      (
        await server.app.db.query<{ status: string }>(
          'select status from knowledge_documents where file_id = $1',
          [file],
        )
      ).rows[0]?.status;
    while ((await status()) !== 'ready') await new Promise((resolve) => setTimeout(resolve, 100));
    const who = { tenant: 'app', userId: user.id };
    // The member's own part: custom instructions of 1,000 characters and `memories` memories.
    await call(server, '/api/v1/user/me/instructions', {
      method: 'PUT',
      token: user.token,
      body: { text: 'I work in payroll. '.repeat(50).trim() },
    });
    const remember = async (count: number) => {
      for (let n = 0; n < count; n += 1)
        await call(server, '/api/v1/memory', {
          token: user.token,
          body: { text: `Fact ${n}: ${filler(12, n)}`, ...(n % 2 ? { project } : {}) },
        });
    };

    // Statements counted on the app's own database handle while one context is built.
    const db = server.app.db as Db;
    const query = db.query.bind(db);
    let statements = 0;
    db.query = ((...args: Parameters<Db['query']>) => {
      statements += 1;
      return query(...args);
    }) as Db['query'];
    const context = async (inProject: boolean, personal = false) => {
      statements = 0;
      const started = performance.now();
      await replyContext(server.app, who, bot, {
        history: [],
        text: question,
        personal,
        ...(inProject ? { project } : {}),
      });
      return { ms: performance.now() - started, statements };
    };
    const contexts = async (inProject: boolean, personal = false) => {
      const runs = [];
      for (let round = 0; round < rounds; round += 1) runs.push(await context(inProject, personal));
      return runs;
    };
    await contexts(true); // warm-up
    const without = await contexts(false);
    const within = await contexts(true);
    // As while the file is being indexed: split and searched on the fly (full text only).
    const markFile = (to: string) =>
      server.app.db.query('update knowledge_documents set status = $2 where file_id = $1', [file, to]);
    await markFile('failed');
    const unindexed = await contexts(true);
    await markFile('ready');
    await remember(20);
    await contexts(true, true); // warm-up
    const withTwenty = await contexts(true, true);
    await remember(180);
    await contexts(true, true); // warm-up (each node reads the memories' vectors once)
    const withTwoHundred = await contexts(true, true);
    db.query = query;

    const replies = async (topic: string) => {
      const times: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        const started = performance.now();
        const reply = await ask(server, user, topic, { text: question });
        if (!reply.done) throw new Error(`reply failed: ${JSON.stringify(reply.error)}`);
        times.push(performance.now() - started);
      }
      return times;
    };
    const topic = async (inProject: boolean) =>
      (
        await call(server, '/api/v1/topic', {
          token: user.token,
          body: { bot: bot.id, ...(inProject ? { project } : {}) },
        })
      ).body._id as string;
    const [plain, projected] = [await topic(false), await topic(true)];
    await replies(projected); // warm-up
    const plainReplies = await replies(plain);
    const projectReplies = await replies(projected);

    const line = (runs: { ms: number; statements: number }[]) => {
      const times = runs.map((run) => run.ms);
      return `p50 ${ms(percentile(times, 50))} p95 ${ms(percentile(times, 95))}, ${runs[0].statements} SQL statements`;
    };
    console.log(
      `## Projects, PGlite: what a project (2,000 characters of instructions, a ${pages}-page PDF searched per message) adds to a model bot's reply (${loadLine()})`,
    );
    console.log(
      `reply context alone: without a project ${line(without)}; in the project ${line(within)} (its file's stored passages, full text and vectors); while the file is being indexed ${line(unindexed)} (split on the fly, full text)`,
    );
    console.log(
      `with the member's custom instructions and memories too: 20 memories (all given) ${line(withTwenty)}; 200 memories (the 20 most relevant) ${line(withTwoHundred)}`,
    );
    const added = percentile(projectReplies, 50) - percentile(plainReplies, 50);
    console.log(
      `whole reply through the chat route (model double, ${rounds} each): without p50 ${ms(percentile(plainReplies, 50))} p95 ${ms(percentile(plainReplies, 95))}; in the project p50 ${ms(percentile(projectReplies, 50))} p95 ${ms(percentile(projectReplies, 95))} (${ms(added)} more at p50); each charged the bot's price, the same with or without`,
    );
  } finally {
    await server.close();
    await model.close();
  }
}
