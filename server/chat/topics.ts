import { type BotAccess, botAccess, botNotForYou } from '../access/groups';
import { inReadableProject, mayReadProject, readableProject } from '../access/projects';
import type { RunnableBot } from '../bots/availability';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { reachOf } from '../files/prompt';
import { deleteTopicFiles } from '../files/store';
import { defaultModelProvider, modelsOfBot, pickModel, withModel } from '../models/store';
import type { Owner } from '../owner';
import type { Citation } from '../providers/types';
import { type Step, stepsJson, stepsOf } from '../tools/steps';
import { plainText, type Snippet, snippet } from './plainText';

/** complete, or streaming now, or ended early: by the user, by a crash of its writer, or by an error. */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'interrupted' | 'failed';

interface TopicRow {
  id: string;
  title: string;
  bot_id: string;
  bot_name: string;
  platform: string;
  last_message: string | null;
  streaming: boolean;
  project: string | null;
  pinned: boolean;
  archived: boolean;
  created_at: Date;
  updated_at: Date;
  /** The exact position of the row in the list, for the next page's cursor. */
  position: string;
}

const previewLength = 140;

const summary = (row: TopicRow) => {
  const preview = row.last_message === null ? null : plainText(row.last_message).slice(0, previewLength);
  return {
    _id: row.id,
    title: row.title,
    bot: { _id: row.bot_id, name: row.bot_name, platform: { name: row.platform } },
    lastMessage: preview,
    preview,
    streaming: row.streaming,
    project: row.project,
    pinned: row.pinned,
    archived: row.archived,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
};
export type TopicSummary = ReturnType<typeof summary>;

// A conversation's project shows while its member may read the project: leaving the project's group
// takes the project out of their conversations at once (they stay theirs, out of any project).
const topicColumns = `
  t.id, t.title, t.created_at, t.updated_at, t.pinned, t.archived,
  case when t.pinned then '1' else '0' end || '|' || t.updated_at::text || '|' || t.id as position,
  (select p.id from projects p where p.id = t.project_id and ${mayReadProject('p', 't.user_id')}) as project,
  b.id as bot_id, b.name as bot_name, b.platform,
  (select left(m.text, 2000) from messages m where m.topic_id = t.id and m.text <> '' order by m.seq desc limit 1) as last_message,
  exists (select 1 from messages m where m.topic_id = t.id and m.status = 'streaming') as streaming`;
const topicQuery = `select ${topicColumns} from topics t join bots b on b.id = t.bot_id where t.tenant = $1 and t.user_id = $2`;

export const topicNotFound = () => new ApiError(404, 'This conversation does not exist.', 'NOT_FOUND');
const badCursor = () =>
  new ApiError(400, 'This list cannot be continued. Load it again.', 'INVALID_CURSOR', 'cursor');

/**
 * Which of the user's topics a list holds: those of one project (one they may read, else 404), and
 * the archived ones or the others. A search finds archived ones too (`archived` undefined).
 */
export interface TopicFilter {
  project?: string;
  archived?: boolean;
}

/** The SQL of a filter, its parameters numbered from `first`. */
async function filtered(db: Db, owner: Owner, filter: TopicFilter, first: number) {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.project !== undefined) {
    await readableProject(db, owner, filter.project);
    params.push(filter.project);
    clauses.push(`and t.project_id = $${first + params.length - 1}`);
  }
  if (filter.archived !== undefined) {
    params.push(filter.archived);
    clauses.push(`and t.archived = $${first + params.length - 1}`);
  }
  return { sql: clauses.join(' '), params };
}

// Pinned ones lead, then the most recently active.
const listOrder = 'order by t.pinned desc, t.updated_at desc, t.id desc';

/** The user's topics in their organization, pinned first, then most recently active (the original list call). */
export async function listTopics(db: Db, owner: Owner, filter: TopicFilter = { archived: false }) {
  const where = await filtered(db, owner, filter, 3);
  const { rows } = await db.query<TopicRow>(`${topicQuery} ${where.sql} ${listOrder} limit 200`, [
    owner.tenant,
    owner.userId,
    ...where.params,
  ]);
  return rows.map(summary);
}

const encodeCursor = (value: string) => Buffer.from(value).toString('base64url');
function decodeCursor(cursor: string): string {
  const value = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!value) throw badCursor();
  return value;
}

/** One page of the user's topics, pinned first, then most recently active; `next` continues after the last. */
export async function pageTopics(
  db: Db,
  owner: Owner,
  options: { cursor: string; limit: number; filter?: TopicFilter },
) {
  let after: [boolean, string, string] | null = null;
  if (options.cursor) {
    const [pinned, at, id] = decodeCursor(options.cursor).split('|');
    // What `position` wrote: pinned or not, PostgreSQL's text of a timestamptz, then the id.
    if (
      !/^[01]$/.test(pinned) ||
      !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d(:\d\d)?$/.test(at ?? '') ||
      !/^[\w-]{1,64}$/.test(id ?? '')
    )
      throw badCursor();
    after = [pinned === '1', at, id];
  }
  const where = await filtered(db, owner, options.filter ?? { archived: false }, after ? 7 : 4);
  const { rows } = await db.query<TopicRow>(
    `${topicQuery} ${after ? 'and (t.pinned, t.updated_at, t.id) < ($4::boolean, $5::timestamptz, $6)' : ''}
     ${where.sql} ${listOrder} limit $3`,
    [owner.tenant, owner.userId, options.limit + 1, ...(after ?? []), ...where.params],
  );
  const more = rows.length > options.limit;
  const page = rows.slice(0, options.limit);
  return { items: page.map(summary), next: more ? encodeCursor(page[page.length - 1].position) : null };
}

/** The words of a search, as the database's query takes them: each a prefix, all required. */
const searchWords = (q: string) => (q.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);

/**
 * The user's topics whose title or messages contain every word of `q` (as prefixes, case- and
 * accent-insensitively), best match first, each with a snippet of its best matching message.
 */
export async function searchTopics(
  db: Db,
  owner: Owner,
  options: { q: string; cursor: string; limit: number; filter?: TopicFilter },
) {
  const words = searchWords(options.q);
  const where = await filtered(db, owner, options.filter ?? {}, 6);
  if (!words.length) return { items: [], next: null };
  const offset = options.cursor ? Number(decodeCursor(options.cursor)) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw badCursor();
  const { rows } = await db.query<TopicRow & { match_text: string | null }>(
    `with q as (
       select to_tsquery('simple', string_agg(quote_literal(parley_fold(word)) || ':*', ' & ')) as query
       from unnest($3::text[]) as word),
     hits as (
       select m.topic_id, max(ts_rank(m.search, q.query)) as rank
       from messages m join topics t on t.id = m.topic_id, q
       where t.tenant = $1 and t.user_id = $2 and m.search @@ q.query
       group by m.topic_id),
     -- A title that matches counts more than any message.
     titled as (
       select t.id as topic_id, 1 + ts_rank(t.search, q.query) as rank
       from topics t, q where t.tenant = $1 and t.user_id = $2 and t.search @@ q.query),
     ranked as (
       select t.id, coalesce(h.rank, 0) + coalesce(ti.rank, 0) as score
       from hits h full join titled ti on ti.topic_id = h.topic_id
       join topics t on t.id = coalesce(h.topic_id, ti.topic_id)
       where true ${where.sql}
       order by score desc, t.updated_at desc, t.id desc limit $4 offset $5)
     select ${topicColumns},
            (select m.text from messages m, q where m.topic_id = t.id and m.search @@ q.query
             order by ts_rank(m.search, q.query) desc, m.seq desc limit 1) as match_text
     from ranked r join topics t on t.id = r.id join bots b on b.id = t.bot_id
     order by r.score desc, t.updated_at desc, t.id desc`,
    [owner.tenant, owner.userId, words, options.limit + 1, offset, ...where.params],
  );
  const more = rows.length > options.limit;
  return {
    items: rows.slice(0, options.limit).map((row) => ({
      ...summary(row),
      snippet: snippet(plainText(row.match_text ?? row.title), words) satisfies Snippet,
    })),
    next: more ? encodeCursor(String(offset + options.limit)) : null,
  };
}

export async function findTopic(db: Db, owner: Owner, id: string) {
  const { rows } = await db.query<TopicRow>(`${topicQuery} and t.id = $3`, [owner.tenant, owner.userId, id]);
  if (!rows[0]) throw topicNotFound();
  return summary(rows[0]);
}

/** A file a message carried, as it was sent; `removed` once its owner deleted it. */
interface MessageFile {
  _id: string;
  name: string;
  type: string;
  size: number | string;
  removed: boolean;
}
const messageFile = ({ removed, ...file }: MessageFile) => ({
  ...file,
  size: Number(file.size),
  ...(removed ? { removed: true } : {}),
});

export async function readTopic(db: Db, owner: Owner, id: string) {
  const topic = await findTopic(db, owner, id);
  const { rows } = await db.query<{
    id: string;
    parent: string | null;
    role: 'user' | 'bot';
    text: string;
    status: MessageStatus;
    cost: string | null;
    created_at: Date;
    head: string | null;
    topic_model: string | null;
    parameters: TopicParameters;
    model_id: string | null;
    files: MessageFile[] | null;
    citations: Citation[] | null;
    steps: Step[] | null;
    rating: 'up' | 'down' | null;
    reason: string | null;
  }>(
    `select m.id, m.parent, m.role, m.text, m.status, m.cost, m.created_at, t.head, m.citations, m.model_id,
            t.parameters, ${chosenModel} as topic_model,
            ${stepsJson()} as steps, fb.rating, fb.reason,
            (select json_agg(json_build_object('_id', mf.file_id, 'name', mf.name, 'type', mf.type,
                    'size', mf.size, 'removed', f.id is null) order by mf.position)
             from message_files mf left join files f on f.id = mf.file_id
             where mf.message_id = m.id) as files
     from topics t left join messages m on m.topic_id = t.id
       left join feedback fb on fb.message_id = m.id and fb.tenant = t.tenant
     where t.id = $1 order by m.seq`,
    [id],
  );
  const messages = rows.filter((row) => row.id !== null);
  return {
    ...topic,
    head: rows[0]?.head ?? null,
    model: rows[0]?.topic_model ?? null,
    parameters: rows[0]?.parameters ?? {},
    messages: messages.map((row) => ({
      _id: row.id,
      parent: row.parent,
      role: row.role,
      text: row.text,
      status: row.status,
      ...(row.role === 'bot' ? { bot: topic.bot._id } : {}),
      ...(row.model_id ? { model: row.model_id } : {}),
      ...(row.cost === null ? {} : { cost: Number(row.cost) }),
      ...(row.files ? { files: row.files.map(messageFile) } : {}),
      ...(row.citations ? { citations: row.citations } : {}),
      ...(row.steps ? { steps: stepsOf(row.steps) } : {}),
      // The member's own thumbs on a reply (their topic's replies are rated by them alone).
      ...(row.role === 'bot'
        ? { feedback: row.rating ? { rating: row.rating, reason: row.reason ?? '' } : null }
        : {}),
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}
export type TopicRecord = Awaited<ReturnType<typeof readTopic>>;

/** A conversation's settings for its replies, where its bot allows them (`userParameters`). */
export interface TopicParameters {
  temperature?: number;
  maxTokens?: number;
}

/**
 * SQL: the model the topic `t` replies with: its choice while its bot still offers it, else the bot's
 * default; null for a bot without catalogue models.
 */
const chosenModel = `coalesce(
  (select bm.model_id from bot_models bm where bm.bot_id = t.bot_id and bm.model_id = t.model_id),
  (select bm.model_id from bot_models bm where bm.bot_id = t.bot_id order by bm.position limit 1))`;

/**
 * The member's choice of the topic's model (one its bot offers: 400 otherwise; null: the bot's
 * default) and of its parameters (only where the bot allows them: 403 otherwise; the maximum reply
 * length within the model's context). What is given changes, nothing else.
 */
export async function tuneTopic(
  db: Db,
  owner: Owner,
  id: string,
  change: { model?: string | null; parameters?: TopicParameters | null },
) {
  const { rows } = await db.query<{
    bot_id: string;
    model_id: string | null;
    config: Record<string, unknown>;
    user_parameters: boolean;
  }>(
    `select t.bot_id, t.model_id, b.config, b.user_parameters from topics t join bots b on b.id = t.bot_id
     where t.id = $1 and t.tenant = $2 and t.user_id = $3`,
    [id, owner.tenant, owner.userId],
  );
  const topic = rows[0];
  if (!topic) throw topicNotFound();
  const offered = await modelsOfBot(db, topic.bot_id);
  const model =
    change.model === undefined ? pickModel(offered, [topic.model_id]) : pickModel(offered, [], change.model);
  const parameters = change.parameters ?? {};
  if (change.parameters) {
    if (!topic.user_parameters)
      throw new ApiError(
        403,
        'This bot does not let you set its temperature or reply length.',
        'PARAMETERS_NOT_ALLOWED',
        'parameters',
      );
    const context = reachOf(withModel(topic.config, model)).contextTokens;
    if (parameters.maxTokens !== undefined && parameters.maxTokens > context)
      throw new ApiError(
        400,
        `The maximum reply length must be within the model's context of ${context} tokens.`,
        'INVALID_INPUT',
        'parameters.maxTokens',
      );
  }
  await db.query(
    `update topics set model_id = case when $4 then $5 else model_id end,
       parameters = case when $6 then $7::jsonb else parameters end
     where id = $1 and tenant = $2 and user_id = $3`,
    [
      id,
      owner.tenant,
      owner.userId,
      change.model !== undefined,
      change.model ?? null,
      change.parameters !== undefined,
      JSON.stringify(parameters),
    ],
  );
}

/** The messages of the branch on screen, root first: from the head up through its parents. */
export function branchOnScreen(topic: TopicRecord) {
  const byId = new Map(topic.messages.map((message) => [message._id, message]));
  const branch = [];
  for (let message = topic.head ? byId.get(topic.head) : undefined; message; ) {
    branch.unshift(message);
    message = message.parent ? byId.get(message.parent) : undefined;
  }
  return branch;
}

/**
 * Shows the branch through `messageId`: the head becomes the newest leaf below it (switching to a
 * sibling shows that sibling's latest continuation). A message of another topic is 404.
 */
export async function switchBranch(db: Db, owner: Owner, topicId: string, messageId: string) {
  const { rows } = await db.query(
    `with recursive mine as (
       select t.id from topics t where t.id = $1 and t.tenant = $2 and t.user_id = $3),
     down as (
       select m.id, m.seq, 0 as depth from messages m join mine on m.topic_id = mine.id where m.id = $4
       union all
       select child.id, child.seq, down.depth + 1 from down cross join lateral (
         select c.id, c.seq from messages c where c.parent = down.id order by c.seq desc limit 1) child),
     leaf as (select id from down order by depth desc limit 1)
     update topics set head = (select id from leaf) where id = $1 and exists (select 1 from leaf) returning id`,
    [topicId, owner.tenant, owner.userId, messageId],
  );
  if (!rows[0]) throw new ApiError(404, 'This message does not exist.', 'NOT_FOUND');
}

/** A new topic of the user's with `botId`, in `project` when given (one they may read, else 404). */
export async function createTopic(
  db: Db,
  owner: Owner,
  start: { bot: string; project?: string },
  canRun: (bot: RunnableBot) => boolean,
) {
  const botId = start.bot;
  const { rows: bots } = await db.query<RunnableBot & BotAccess & { name: string }>(
    `select b.name, b.active, b.platform, b.config, ${botAccess('b', '$3')},
            ${defaultModelProvider('b.id')} as model_provider
     from bots b where b.id = $1 and b.tenant = $2`,
    [botId, owner.tenant, owner.userId],
  );
  if (!bots[0] || bots[0].hidden) throw new ApiError(404, 'This bot does not exist.', 'BOT_NOT_FOUND');
  if (!bots[0].may_use) throw botNotForYou(bots[0]);
  if (!canRun(bots[0])) throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE');
  if (start.project !== undefined) await readableProject(db, owner, start.project);
  const { rows } = await inReadableProject(
    db.query<{ id: string }>(
      'insert into topics (tenant, user_id, bot_id, project_id) values ($1, $2, $3, $4) returning id',
      [owner.tenant, owner.userId, botId, start.project ?? null],
    ),
  );
  return readTopic(db, owner, rows[0].id);
}

/** The member's own title: from now on, no title written for them replaces it. */
export async function renameTopic(db: Db, owner: Owner, id: string, title: string) {
  const { rows } = await db.query(
    'update topics set title = $4, title_set = true where id = $1 and tenant = $2 and user_id = $3 returning id',
    [id, owner.tenant, owner.userId, title],
  );
  if (!rows[0]) throw topicNotFound();
  return findTopic(db, owner, id);
}

/**
 * A title written for the member (by the bot's model), unless they have set one themselves meanwhile:
 * answers whether it was stored.
 */
export async function writeTitle(db: Db, owner: Owner, id: string, title: string): Promise<boolean> {
  const { rows } = await db.query(
    'update topics set title = $4 where id = $1 and tenant = $2 and user_id = $3 and not title_set returning id',
    [id, owner.tenant, owner.userId, title],
  );
  return rows.length > 0;
}

/**
 * Moves the user's topic into a project they may read (else 404) or out of any (`null`), pins or
 * unpins it, archives or brings it back: what is given changes, nothing else.
 */
export async function arrangeTopic(
  db: Db,
  owner: Owner,
  id: string,
  change: { project?: string | null; pinned?: boolean; archived?: boolean },
) {
  if (change.project) await readableProject(db, owner, change.project);
  const { rows } = await inReadableProject(
    db.query(
      `update topics set project_id = case when $4 then $5 else project_id end,
       pinned = coalesce($6, pinned), archived = coalesce($7, archived)
     where id = $1 and tenant = $2 and user_id = $3 returning id`,
      [
        id,
        owner.tenant,
        owner.userId,
        change.project !== undefined,
        change.project ?? null,
        change.pinned ?? null,
        change.archived ?? null,
      ],
    ),
  );
  if (!rows[0]) throw topicNotFound();
}

/** Deletes the topic, its messages and the files they carried (unless another topic carries them too). */
export async function deleteTopic(db: Db, owner: Owner, id: string) {
  await db.transaction(async (tx) => {
    await deleteTopicFiles(tx, owner, id);
    const { rows } = await tx.query(
      'delete from topics where id = $1 and tenant = $2 and user_id = $3 returning id',
      [id, owner.tenant, owner.userId],
    );
    if (!rows[0]) throw topicNotFound();
  });
}
