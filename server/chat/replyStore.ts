import { type BotAccess, botAccess } from '../access/groups';
import {
  hold,
  holdWhen,
  refusal,
  releaseOrphans,
  release as releaseReservation,
  replyReservations,
  settle as settleReservation,
} from '../billing/reservations';
import type { Pricing } from '../billing/tokens';
import { replyChannel } from '../db/channels';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';
import type { Citation, ReplyUsage, Turn } from '../providers/types';
import { lease } from '../replies/lease';
import { type Step, stepsJson } from '../tools/steps';
import { shortTitle } from './titles';

export const replyInProgress = () =>
  new ApiError(
    409,
    'A reply is still being written in this conversation. Wait for it or stop it.',
    'REPLY_IN_PROGRESS',
  );
/** A topic of the user's with its bot, as a reply starts in it. */
export interface TopicForReply extends BotAccess {
  bot_id: string;
  name: string;
  price: string;
  active: boolean;
  platform: string;
  config: Record<string, unknown>;
  head: string | null;
  /** The user's balance, less what replies in flight hold. */
  available: string;
  /** The conversation's choice of model (the bot may no longer offer it) and its parameters. */
  model_id: string | null;
  parameters: { temperature?: number; maxTokens?: number };
  /** The bot lets members set a conversation's parameters. */
  user_parameters: boolean;
  /** A reply is being written in the topic. */
  busy: boolean;
  /** The topic's project (its context is given while the user may read it). */
  project: string | null;
}

/** The user's topic, its bot and whether a reply can start: one query; null for anyone else's topic. */
export async function topicForReply(db: Db, owner: Owner, topicId: string): Promise<TopicForReply | null> {
  const { rows } = await db.query<TopicForReply>(
    `select b.id as bot_id, b.name, b.price, b.active, b.platform, b.config, t.head, t.project_id as project,
            u.balance - u.reserved as available, t.model_id, t.parameters, b.user_parameters,
            exists (select 1 from messages m where m.topic_id = t.id and m.status = 'streaming') as busy,
            ${botAccess('b', 'u.id')}
     from topics t join bots b on b.id = t.bot_id join users u on u.id = t.user_id
     where t.id = $1 and t.tenant = $2 and t.user_id = $3`,
    [topicId, owner.tenant, owner.userId],
  );
  return rows[0] ?? null;
}

/** The id of the reply streaming in the user's topic, or null; undefined for anyone else's topic. */
export async function streamingReplyOf(
  db: Db,
  owner: Owner,
  topicId: string,
): Promise<string | null | undefined> {
  const { rows } = await db.query<{ id: string | null }>(
    `select (select m.id from messages m where m.topic_id = t.id and m.status = 'streaming') as id
     from topics t where t.id = $1 and t.tenant = $2 and t.user_id = $3`,
    [topicId, owner.tenant, owner.userId],
  );
  return rows[0] ? rows[0].id : undefined;
}

/** A reply as a follower on another node reads it at each checkpoint. */
export interface StoredReply {
  text: string;
  status: string;
  cost: string | null;
  balance: string;
  citations: Citation[] | null;
  steps: Step[] | null;
  files: ReplyFile[] | null;
}

/** A file a reply made (a generated image), as its `done` event carries it. */
export interface ReplyFile {
  _id: string;
  name: string;
  type: string;
  size: number;
}

/** SQL: the files the message `m` carries, in order, or null when it carries none. */
const filesJson = `(select json_agg(json_build_object('_id', mf.file_id, 'name', mf.name, 'type', mf.type,
    'size', mf.size) order by mf.position) from message_files mf where mf.message_id = m.id)`;

/** The files a reply made, in order. */
export async function replyFiles(db: Db, messageId: string): Promise<ReplyFile[]> {
  const { rows } = await db.query<{ files: ReplyFile[] | null }>(
    `select ${filesJson} as files from messages m where m.id = $1`,
    [messageId],
  );
  return rows[0]?.files ?? [];
}

/** The reply `messageId` as last stored, with the balance of `userId` (its follower); undefined once deleted. */
export async function storedReply(
  db: Db,
  messageId: string,
  userId: string,
): Promise<StoredReply | undefined> {
  const { rows } = await db.query<StoredReply>(
    `select m.text, m.status, m.cost, m.citations, u.balance, ${stepsJson()} as steps, ${filesJson} as files
     from messages m join users u on u.id = $2 where m.id = $1`,
    [messageId, userId],
  );
  return rows[0];
}

/** The status of a reply, or null once it is deleted. */
export async function replyStatus(db: Db, messageId: string): Promise<string | null> {
  const { rows } = await db.query<{ status: string }>('select status from messages where id = $1', [
    messageId,
  ]);
  return rows[0]?.status ?? null;
}

export interface StartedReply {
  /** The user's message the reply answers: stored just now, or earlier for a regenerated reply. */
  userMessageId: string;
  botMessageId: string;
}

const conflicts = (error: unknown) => {
  if ((error as { code?: string }).code === '23505') return replyInProgress();
  return error;
};

/**
 * Reserves the price, stores the user's message under `parent` (with the files it carries) and an
 * empty bot message under it that is `streaming`, and makes it the topic's head, in one statement:
 * all of it or nothing. No
 * credit to hold → 402; a reply already streaming in the topic (the unique index, on every node) → 409.
 * The same statement reads the branch being answered, so the first token waits on one round trip.
 */
export async function startReply(
  db: Db,
  owner: Owner,
  reply: {
    topicId: string;
    parent: string | null;
    text: string;
    price: number;
    /** The catalogue model that writes the reply. */
    model?: string | null;
    files?: { _id: string; name: string; type: string; size: number }[];
    /** The member asked the message to search the web: its regenerations search again. */
    webSearch?: boolean;
  },
): Promise<
  StartedReply & { userMessageId: string; history: Turn[]; historyCarriesFiles: boolean; titled: boolean }
> {
  try {
    const { rows } = await db.query<{
      user_message_id: string | null;
      bot_message_id: string | null;
      history: Turn[];
      history_carries_files: boolean;
      titled: boolean;
    }>(
      `with recursive branch as (
         select id, parent, role, text, 0 as depth from messages where id = $7 and topic_id = $1
         union all
         select m.id, m.parent, m.role, m.text, b.depth + 1 from messages m join branch b on m.id = b.parent),
       hold as (${hold}),
       asked as (
         insert into messages (topic_id, parent, role, text, web_search) select $1, $7, 'user', $5, $10 from hold returning id),
       carried as (
         insert into message_files (message_id, position, file_id, name, type, size)
         select asked.id, file.position - 1, file.value->>'_id', file.value->>'name', file.value->>'type',
                (file.value->>'size')::bigint
         from asked, jsonb_array_elements($8::jsonb) with ordinality as file (value, position)),
       answer as (
         insert into messages (topic_id, parent, role, text, status, reserved, lease_until, model_id)
         select $1, asked.id, 'bot', '', 'streaming', $4, ${lease}, $9 from asked returning id),
       touched as (
         update topics set updated_at = now(), head = (select id from answer),
                title = case when title = '' then $6 else title end
         where id = $1 and exists (select 1 from answer))
       select (select id from asked) as user_message_id, (select id from answer) as bot_message_id,
              (select coalesce(json_agg(json_build_object('id', id, 'role', role, 'text', text) order by depth desc), '[]')
               from branch where text <> '') as history,
              exists (select 1 from message_files mf join branch on branch.id = mf.message_id) as history_carries_files,
              -- Read before the update (one snapshot): this message gives the topic its title.
              (select t.title = '' from topics t where t.id = $1) as titled`,
      [
        reply.topicId,
        owner.userId,
        owner.tenant,
        reply.price,
        reply.text,
        shortTitle(reply.text),
        reply.parent,
        JSON.stringify(reply.files ?? []),
        reply.model ?? null,
        reply.webSearch === true,
      ],
    );
    const { user_message_id, bot_message_id, history, history_carries_files, titled } = rows[0];
    if (!user_message_id || !bot_message_id) throw await refusal(db, owner, reply.price);
    return {
      userMessageId: user_message_id,
      botMessageId: bot_message_id,
      history,
      historyCarriesFiles: history_carries_files,
      titled,
    };
  } catch (error) {
    throw conflicts(error);
  }
}

/** Like `startReply` for a new reply to a message already stored (regenerate): reserve, store, head. */
export async function startRegeneration(
  db: Db,
  owner: Owner,
  reply: { topicId: string; parent: string; price: number; model: string | null },
): Promise<StartedReply> {
  try {
    const { rows } = await db.query<{ bot_message_id: string | null }>(
      `with hold as (${hold}),
       answer as (
         insert into messages (topic_id, parent, role, text, status, reserved, lease_until, model_id)
         select $1, $5, 'bot', '', 'streaming', $4, ${lease}, $6 from hold returning id),
       touched as (
         update topics set updated_at = now(), head = (select id from answer)
         where id = $1 and exists (select 1 from answer))
       select (select id from answer) as bot_message_id`,
      [reply.topicId, owner.userId, owner.tenant, reply.price, reply.parent, reply.model],
    );
    if (!rows[0].bot_message_id) throw await refusal(db, owner, reply.price);
    return { userMessageId: reply.parent, botMessageId: rows[0].bot_message_id };
  } catch (error) {
    throw conflicts(error);
  }
}

export const notContinuable = () =>
  new ApiError(
    409,
    'Only a reply that ended early, with nothing sent after it, can be continued.',
    'NOT_CONTINUABLE',
  );

/** A reply taken up again: as `StartedReply`, with what was written of it. */
export interface ContinuedReply extends StartedReply {
  text: string;
  /** The web pages it cited so far: a continuation cites them still, its new ones after them. */
  pages: Citation[];
}

/**
 * Like `startRegeneration` for a reply that ended early (stopped, interrupted, failed) and that
 * nothing follows: reserves its price again and makes it `streaming` and the topic's head, in one
 * statement. Its text and tool steps stay; what is written next is added to them. No credit → 402; a
 * reply that is not continuable (any more) → 409, nothing reserved.
 */
export async function startContinuation(
  db: Db,
  owner: Owner,
  reply: { topicId: string; messageId: string; price: number; model: string | null },
): Promise<ContinuedReply> {
  try {
    const { rows } = await db.query<{
      continuable: boolean;
      bot_message_id: string | null;
      parent: string;
      text: string;
      citations: Citation[] | null;
    }>(
      `with target as (
         select m.id from messages m
         where m.id = $5 and m.topic_id = $1 and m.role = 'bot' and m.status in ('stopped', 'interrupted', 'failed')
           and not exists (select 1 from messages c where c.parent = m.id)
         for update),
       hold as (${holdWhen('exists (select 1 from target)')}),
       answer as (
         update messages m set status = 'streaming', reserved = $4, reserved_at = now(), lease_until = ${lease},
                model_id = $6
         from target where m.id = target.id and exists (select 1 from hold)
         returning m.id, m.parent, m.text, m.citations),
       touched as (
         update topics set updated_at = now(), head = (select id from answer)
         where id = $1 and exists (select 1 from answer))
       select exists (select 1 from target) as continuable, answer.id as bot_message_id, answer.parent, answer.text,
              answer.citations
       from (select 1) as one left join answer on true`,
      [reply.topicId, owner.userId, owner.tenant, reply.price, reply.messageId, reply.model],
    );
    const row = rows[0];
    if (!row.continuable) throw notContinuable();
    if (!row.bot_message_id) throw await refusal(db, owner, reply.price);
    return {
      userMessageId: row.parent,
      botMessageId: row.bot_message_id,
      text: row.text,
      pages: (row.citations ?? []).filter((citation) => citation.url !== undefined),
    };
  } catch (error) {
    throw conflicts(error);
  }
}

/** The sources the reply is given, stored with it before it starts: its `done` event and the topic show them. */
export async function setCitations(db: Db, messageId: string, citations: Citation[]) {
  await db.query('update messages set citations = $2 where id = $1', [messageId, JSON.stringify(citations)]);
}

/** Stores the text so far and renews the lease; false when the reply is no longer this writer's. */
export async function checkpoint(db: Db, messageId: string, text: string): Promise<boolean> {
  const { rows } = await db.query(
    `with saved as (
       update messages set text = $2, lease_until = ${lease} where id = $1 and status = 'streaming' returning id)
     select pg_notify('${replyChannel}', id) from saved`,
    [messageId, text],
  );
  return rows.length > 0;
}

/**
 * The reply is complete: stored with the tokens it used, its reservation turned into a charge
 * (`billing/reservations` `settle`: by those tokens on a token-priced model), the topic touched; null
 * when it had already been ended (interrupted): nothing charged.
 */
export const settle = (
  db: Db,
  owner: Owner,
  reply: {
    messageId: string;
    text: string;
    description: string;
    free: boolean;
    usage: ReplyUsage;
    pricing: Pricing | null;
  },
) =>
  settleReservation(db, owner, replyReservations, {
    id: reply.messageId,
    description: reply.description,
    free: reply.free,
    set: {
      text: reply.text,
      prompt_tokens: reply.usage.promptTokens,
      completion_tokens: reply.usage.completionTokens,
    },
    tokens: { pricing: reply.pricing, usage: reply.usage },
  });

/**
 * The reply ended without completing: kept as far as it got (`text`, or its last checkpoint when
 * null) with its status, its reservation released (a stopped or failed reply costs nothing). A reply
 * that produced nothing (no text, no tool call) is not kept, and the head goes back to the message it
 * answered. Answers whether a reply is kept.
 */
export async function release(
  db: Db,
  owner: Owner,
  reply: { messageId: string; text: string | null; status: 'stopped' | 'failed' },
): Promise<boolean> {
  const ended = await releaseReservation(db, owner, replyReservations, {
    id: reply.messageId,
    status: reply.status,
    set: reply.text === null ? {} : { text: reply.text },
  });
  if (!ended) return false;
  if (reply.text) return true;
  // A reply that called tools keeps them, even without text.
  const { rows: gone } = await db.query(
    `with gone as (delete from messages where id = $1 and text = ''
                     and not exists (select 1 from tool_steps where message_id = $1) returning topic_id, parent),
     moved as (
       update topics t set head = gone.parent from gone
       where t.id = gone.topic_id and (t.head is null or t.head = $1))
     select 1 from gone`,
    [reply.messageId],
  );
  return gone.length === 0;
}

/** Replies whose writer is gone, marked interrupted (`billing/reservations` `releaseOrphans`). */
export const interruptOrphans = (db: Db, all = false, mine: string[] = []) =>
  releaseOrphans(db, replyReservations, all, mine);
