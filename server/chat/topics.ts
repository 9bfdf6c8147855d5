import type { Owner } from '../auth/sessions';
import type { Db } from '../db/database';
import { ApiError } from '../errors';

export type { Owner } from '../auth/sessions';

/** complete, or streaming now, or ended early: by the user, by a crash of its writer, or by an error. */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'interrupted' | 'failed';

interface TopicRow {
  id: string;
  title: string;
  bot_id: string;
  bot_name: string;
  platform: string;
  last_message: string | null;
  updated_at: Date;
}

const summary = (row: TopicRow) => ({
  _id: row.id,
  title: row.title,
  bot: { _id: row.bot_id, name: row.bot_name, platform: { name: row.platform } },
  lastMessage: row.last_message,
  updatedAt: new Date(row.updated_at).toISOString(),
});

const topicQuery = `
  select t.id, t.title, t.updated_at, b.id as bot_id, b.name as bot_name, b.platform,
         (select left(m.text, 140) from messages m where m.topic_id = t.id order by m.seq desc limit 1) as last_message
  from topics t join bots b on b.id = t.bot_id
  where t.tenant = $1 and t.user_id = $2`;

export const topicNotFound = () => new ApiError(404, 'This conversation does not exist.', 'NOT_FOUND');

/** The user's topics in their organization, most recently active first. */
export async function listTopics(db: Db, owner: Owner) {
  const { rows } = await db.query<TopicRow>(`${topicQuery} order by t.updated_at desc limit 200`, [
    owner.tenant,
    owner.userId,
  ]);
  return rows.map(summary);
}

export async function findTopic(db: Db, owner: Owner, id: string) {
  const { rows } = await db.query<TopicRow>(`${topicQuery} and t.id = $3`, [owner.tenant, owner.userId, id]);
  if (!rows[0]) throw topicNotFound();
  return summary(rows[0]);
}

export async function readTopic(db: Db, owner: Owner, id: string) {
  const topic = await findTopic(db, owner, id);
  const { rows } = await db.query<{
    id: string;
    role: 'user' | 'bot';
    text: string;
    status: MessageStatus;
    cost: string | null;
    created_at: Date;
  }>('select id, role, text, status, cost, created_at from messages where topic_id = $1 order by seq', [id]);
  return {
    ...topic,
    messages: rows.map((row) => ({
      _id: row.id,
      role: row.role,
      text: row.text,
      status: row.status,
      ...(row.cost === null ? {} : { cost: Number(row.cost) }),
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}

export async function createTopic(db: Db, owner: Owner, botId: string) {
  const { rows: bots } = await db.query<{ active: boolean }>(
    'select active from bots where id = $1 and tenant = $2',
    [botId, owner.tenant],
  );
  if (!bots[0]) throw new ApiError(404, 'This bot does not exist.', 'BOT_NOT_FOUND');
  if (!bots[0].active) throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE');
  const { rows } = await db.query<{ id: string }>(
    'insert into topics (tenant, user_id, bot_id) values ($1, $2, $3) returning id',
    [owner.tenant, owner.userId, botId],
  );
  return readTopic(db, owner, rows[0].id);
}

export async function renameTopic(db: Db, owner: Owner, id: string, title: string) {
  const { rows } = await db.query(
    'update topics set title = $4 where id = $1 and tenant = $2 and user_id = $3 returning id',
    [id, owner.tenant, owner.userId, title],
  );
  if (!rows[0]) throw topicNotFound();
  return findTopic(db, owner, id);
}

export async function deleteTopic(db: Db, owner: Owner, id: string) {
  const { rows } = await db.query(
    'delete from topics where id = $1 and tenant = $2 and user_id = $3 returning id',
    [id, owner.tenant, owner.userId],
  );
  if (!rows[0]) throw topicNotFound();
}
