import { type BotAccess, botAccess, botNotForYou } from '../access/groups';
import type { RunnableBot } from '../bots/availability';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { defaultModelProvider } from '../models/store';
import type { Owner } from '../owner';
import type { ImportedConversation } from './sources';

/**
 * The bot imported conversations are continued with: the one asked for (it must be one the member may
 * use and that can answer), else the project's default bot, else the first of the catalogue the
 * member may use that can answer (the catalogue's order). None at all is a 409.
 */
export async function botForImport(
  db: Db,
  owner: Owner,
  choice: { requested: string | undefined; project: string | null },
  canRun: (bot: RunnableBot) => boolean,
): Promise<string> {
  const { rows } = await db.query<
    RunnableBot & BotAccess & { id: string; name: string; is_default: boolean }
  >(
    `select b.id, b.name, b.active, b.platform, b.config, ${botAccess('b', '$2')},
            ${defaultModelProvider('b.id')} as model_provider,
            b.id = (select p.bot_id from projects p where p.id = $3 and p.tenant = $1) as is_default
     from bots b where b.tenant = $1 order by b.position, b.name`,
    [owner.tenant, owner.userId, choice.project],
  );
  if (choice.requested !== undefined) {
    const bot = rows.find((row) => row.id === choice.requested);
    if (!bot || bot.hidden) throw new ApiError(404, 'This bot does not exist.', 'BOT_NOT_FOUND', 'bot');
    if (!bot.may_use) throw botNotForYou(bot);
    if (!canRun(bot)) throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE', 'bot');
    return bot.id;
  }
  const usable = rows.filter((row) => row.may_use && canRun(row));
  const chosen = usable.find((row) => row.is_default) ?? usable[0];
  if (!chosen)
    throw new ApiError(
      409,
      'No bot is available to continue these conversations with.',
      'BOT_INACTIVE',
      'bot',
    );
  return chosen.id;
}

/**
 * Stores one conversation as a topic of the member's, with all its messages and its head, in one
 * transaction: all of it or nothing. Its title is kept as the member's own (never replaced by one
 * written for them). Answers the topic's id, or null when this conversation was imported already.
 */
export async function importConversation(
  db: Db,
  owner: Owner,
  into: { bot: string; project: string | null },
  conversation: ImportedConversation,
): Promise<string | null> {
  const { messages } = conversation;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into topics (tenant, user_id, bot_id, project_id, title, title_set, import_key, created_at, updated_at)
       values ($1, $2, $3, $4, $5, true, $6, coalesce($7, now()), coalesce($8, $7, now()))
       on conflict (tenant, user_id, import_key) where import_key is not null do nothing
       returning id`,
      [
        owner.tenant,
        owner.userId,
        into.bot,
        into.project,
        conversation.title,
        conversation.key,
        conversation.createdAt,
        conversation.updatedAt,
      ],
    );
    const topic = rows[0]?.id;
    if (!topic) return null;
    // Parents first, in one statement: `seq` follows the order given (a later sibling is newer).
    await tx.query(
      `insert into messages (id, topic_id, parent, role, text, created_at)
       select m.id, $1, m.parent, m.role, m.text, coalesce(m.created_at, $7::timestamptz, now())
       from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
            with ordinality as m (id, parent, role, text, created_at, n)
       order by m.n`,
      [
        topic,
        messages.map((message) => message.id),
        messages.map((message) => message.parent),
        messages.map((message) => message.role),
        messages.map((message) => message.text),
        messages.map((message) => message.createdAt),
        conversation.createdAt,
      ],
    );
    await tx.query('update topics set head = $2 where id = $1', [topic, conversation.head]);
    return topic;
  });
}
