import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { objectOf } from '../../schemas';
import { readUsage, type Usage } from './store';

const counts = {
  messages: { type: 'integer', description: 'messages members sent' },
  replies: { type: 'integer', description: 'replies completed' },
  spend: { type: 'number', description: 'what the replies cost, in the organization’s currency' },
} as const;
/** An object of these properties, every one of them present. */
const row = <const P extends Record<string, unknown>>(properties: P) =>
  objectOf(properties, Object.keys(properties) as (keyof P & string)[]);
/**
 * The answer of GET /api/v1/admin/usage (JSON): totals, per UTC day (every day, oldest first), per bot,
 * per member, per group (what its members now used, over the same days).
 */
export const usageSchema = row({
  days: { type: 'integer' },
  since: { type: 'string', description: 'first day counted (UTC), YYYY-MM-DD' },
  currency: { type: 'string' },
  storageBytes: { type: 'integer', description: 'what the organization’s files take now, in bytes' },
  storageQuotaMb: { type: 'integer', description: 'the organization’s storage for files' },
  totals: row(counts),
  perDay: { type: 'array', items: row({ date: { type: 'string' }, ...counts }) },
  perBot: { type: 'array', items: row({ _id: { type: 'string' }, name: { type: 'string' }, ...counts }) },
  perMember: {
    type: 'array',
    items: row({
      _id: { type: 'string' },
      displayName: { type: 'string' },
      username: { type: 'string' },
      ...counts,
    }),
  },
  perKey: {
    type: 'array',
    description: 'completions through personal API keys (Parley’s OpenAI-compatible API), per key',
    items: row({
      _id: { type: 'string' },
      name: { type: 'string' },
      last4: { type: 'string' },
      userId: { type: 'string' },
      displayName: { type: 'string' },
      revoked: { type: 'boolean' },
      ...counts,
    }),
  },
  perTool: {
    type: 'array',
    description: 'tool calls of model bots (denied ones left out), per tool, most called first',
    items: row({ tool: { type: 'string' }, calls: { type: 'integer' } }),
  },
  perGroup: {
    type: 'array',
    items: row({
      _id: { type: 'string' },
      name: { type: 'string' },
      monthlyBudget: { type: ['number', 'null'], description: 'per member and calendar month (UTC)' },
      members: { type: 'integer', description: 'how many members it has now' },
      ...counts,
    }),
  },
});

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Every CSV row as wide as the header: `calls` is only a tool's. */
const columns = 8;
const fill = (line: (string | number)[]) => [...line, ...Array(columns - line.length).fill('')];

/** The usage as one CSV table: a section per row, `calls` only a tool's. */
function csvOf(usage: Usage): string {
  const lines = [
    ['section', 'date', 'id', 'name', 'messages', 'replies', 'spend', 'calls'],
    ...usage.perDay.map((day) => ['day', day.date, '', '', day.messages, day.replies, day.spend]),
    ...usage.perBot.map((bot) => ['bot', '', bot._id, bot.name, bot.messages, bot.replies, bot.spend]),
    ...usage.perMember.map((member) => [
      'member',
      '',
      member._id,
      member.displayName,
      member.messages,
      member.replies,
      member.spend,
    ]),
    ...usage.perKey.map((key) => [
      'api key',
      '',
      key._id,
      `${key.name} (…${key.last4})`,
      key.messages,
      key.replies,
      key.spend,
    ]),
    ...usage.perGroup.map((group) => [
      'group',
      '',
      group._id,
      group.name,
      group.messages,
      group.replies,
      group.spend,
    ]),
    ...usage.perTool.map((tool) => ['tool', '', '', tool.tool, '', '', '', tool.calls]),
  ];
  return `${lines.map((line) => fill(line).map(cell).join(',')).join('\r\n')}\r\n`;
}

/**
 * Usage of the organization over the last `days` days (UTC, today included): messages, completed
 * replies and spend per day, per bot, per member, per API key and per group, and tool calls per tool;
 * `format=csv` downloads one table of them all.
 */
export const usageAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get(
    '/usage',
    {
      schema: {
        querystring: objectOf({
          days: { type: 'string', pattern: '^([1-9]|[1-9][0-9]|[1-2][0-9][0-9]|3[0-5][0-9]|36[0-6])$' },
          format: { type: 'string', enum: ['json', 'csv'] },
        }),
        response: {
          200: {
            content: {
              'application/json': { schema: usageSchema },
              'text/csv': { schema: { type: 'string', description: 'format=csv: one table of them all' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const days = Number(request.query.days ?? 30);
      const usage = await readUsage(app.db, request.tenant, days);
      if (request.query.format !== 'csv') return usage;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="parley-${request.tenant}-usage-${days}d.csv"`)
        .header('cache-control', 'no-store')
        .serializer((payload: string) => payload)
        .send(csvOf(usage));
    },
  );
};
