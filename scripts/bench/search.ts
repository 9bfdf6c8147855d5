import { call, signUp, startApp } from '../../tests/support/app';
import { ms, percentile } from './stats';

const conversations = 10_000;
const words = [
  'garden',
  'invoice',
  'holiday',
  'python',
  'mother',
  'budget',
  'piano',
  'recipe',
  'train',
  'café',
];

/** `GET /api/v1/topic?q=` over 10,000 conversations of one user (four messages each), per request. */
export async function printSearchFigures(options: { name: string; url?: string }): Promise<void> {
  const server = await startApp(options.url ? { DATABASE_URL: options.url } : {});
  try {
    const user = await signUp(server);
    const { rows } = await server.app.db.query<{ id: string }>(
      "select id from bots where tenant = 'app' and name = 'ELIZA'",
    );
    // Seeded in bulk through SQL: the figure is the search, not 40,000 replies.
    await server.app.db.query(
      `with made as (
         insert into topics (tenant, user_id, bot_id, title, updated_at)
         select 'app', $1, $2, 'Conversation ' || n || ' about ' || ($3::text[])[1 + n % 10], now() - n * interval '1 minute'
         from generate_series(1, $4) as n returning id, title)
       insert into messages (topic_id, role, text)
       select made.id, role, text from made, lateral (values
         ('user', 'Tell me about the ' || made.title || ' and the weather today.'),
         ('bot', 'Why do you want to talk about ' || made.title || '? Does it remind you of something?'),
         ('user', 'It reminds me of the ' || ($3::text[])[1 + length(made.id) % 10] || ' I once had.'),
         ('bot', 'Please **go on**: your feelings about it matter.')) as m(role, text)`,
      [user.id, rows[0].id, words, conversations],
    );
    // As autovacuum would after such a load (and the server does on PGlite, which has none).
    await server.app.db.query('analyze');
    const queries = ['holiday', 'CAFE', 'remind', 'feelings matter', 'conversation 99', 'zebra'];
    const run = async () => {
      const timings = new Map<string, number[]>(queries.map((q) => [q, []]));
      for (let round = 0; round < 40; round += 1) {
        for (const q of queries) {
          const started = performance.now();
          const answer = await call(server, `/api/v1/topic?q=${encodeURIComponent(q)}`, {
            token: user.token,
          });
          timings.get(q)?.push(performance.now() - started);
          if (answer.status !== 200) throw new Error(`search failed: ${JSON.stringify(answer.body)}`);
        }
      }
      return timings;
    };
    await run(); // warm-up: caches, plans, JIT
    const byQuery = await run();
    const timings = [...byQuery.values()].flat();
    const page = [] as number[];
    for (let round = 0; round < 100; round += 1) {
      const started = performance.now();
      await call(server, '/api/v1/topic?cursor=&limit=30', { token: user.token });
      page.push(performance.now() - started);
    }
    console.log(
      `## Search, ${options.name}: ${conversations} conversations, ${conversations * 4} messages, one user`,
    );
    console.log(
      `GET /api/v1/topic?q= (${timings.length} requests, ${queries.length} queries): p50 ${ms(percentile(timings, 50))}, p95 ${ms(percentile(timings, 95))}, p99 ${ms(percentile(timings, 99))}, max ${ms(Math.max(...timings))}`,
    );
    console.log(
      `  p50 per query: ${[...byQuery].map(([q, values]) => `"${q}" ${ms(percentile(values, 50))}`).join(', ')}`,
    );
    console.log(
      `GET /api/v1/topic?cursor= (first page of 30, ${page.length} requests): p50 ${ms(percentile(page, 50))}, p99 ${ms(percentile(page, 99))}`,
    );
  } finally {
    await server.close();
  }
}
