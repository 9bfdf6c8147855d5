import type { Owner } from '../auth/sessions';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Citation, Turn } from './providers/types';

/** Below this after a charge, the user is told their balance is low. */
const lowBalance = 1;
const lowBalanceNotice = {
  title: 'Your balance is low',
  body: 'Your balance is under 1.00. Replies from paid bots stop when it runs out.',
};

/** NOTIFY channel: a streaming reply's message id, on each checkpoint and when it ends. */
export const replyChannel = 'parley_replies';

/** How long a reply's writer may stay silent before the reply counts as cut off. */
export const leaseSeconds = 5;

export const replyInProgress = () =>
  new ApiError(
    409,
    'A reply is still being written in this conversation. Wait for it or stop it.',
    'REPLY_IN_PROGRESS',
  );
export const insufficientBalance = () => new ApiError(402, 'Insufficient balance', 'INSUFFICIENT_BALANCE');

export interface StartedReply {
  /** The user's message the reply answers: stored just now, or earlier for a regenerated reply. */
  userMessageId: string;
  botMessageId: string;
}

const lease = `now() + make_interval(secs => ${leaseSeconds})`;
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
    files?: { _id: string; name: string; type: string; size: number }[];
  },
): Promise<StartedReply & { userMessageId: string; history: Turn[]; historyCarriesFiles: boolean }> {
  try {
    const { rows } = await db.query<{
      user_message_id: string | null;
      bot_message_id: string | null;
      history: Turn[];
      history_carries_files: boolean;
    }>(
      `with recursive branch as (
         select id, parent, role, text, 0 as depth from messages where id = $7 and topic_id = $1
         union all
         select m.id, m.parent, m.role, m.text, b.depth + 1 from messages m join branch b on m.id = b.parent),
       hold as (
         update users set reserved = reserved + $4
         where id = $2 and tenant = $3 and balance - reserved >= $4 returning id),
       asked as (
         insert into messages (topic_id, parent, role, text) select $1, $7, 'user', $5 from hold returning id),
       carried as (
         insert into message_files (message_id, position, file_id, name, type, size)
         select asked.id, file.position - 1, file.value->>'_id', file.value->>'name', file.value->>'type',
                (file.value->>'size')::bigint
         from asked, jsonb_array_elements($8::jsonb) with ordinality as file (value, position)),
       answer as (
         insert into messages (topic_id, parent, role, text, status, reserved, lease_until)
         select $1, asked.id, 'bot', '', 'streaming', $4, ${lease} from asked returning id),
       touched as (
         update topics set updated_at = now(), head = (select id from answer),
                title = case when title = '' then left($6, 80) else title end
         where id = $1 and exists (select 1 from answer))
       select (select id from asked) as user_message_id, (select id from answer) as bot_message_id,
              (select coalesce(json_agg(json_build_object('id', id, 'role', role, 'text', text) order by depth desc), '[]')
               from branch where text <> '') as history,
              exists (select 1 from message_files mf join branch on branch.id = mf.message_id) as history_carries_files`,
      [
        reply.topicId,
        owner.userId,
        owner.tenant,
        reply.price,
        reply.text,
        reply.text.replace(/\s+/g, ' ').trim(),
        reply.parent,
        JSON.stringify(reply.files ?? []),
      ],
    );
    const { user_message_id, bot_message_id, history, history_carries_files } = rows[0];
    if (!user_message_id || !bot_message_id) throw insufficientBalance();
    return {
      userMessageId: user_message_id,
      botMessageId: bot_message_id,
      history,
      historyCarriesFiles: history_carries_files,
    };
  } catch (error) {
    throw conflicts(error);
  }
}

/** Like `startReply` for a new reply to a message already stored (regenerate): reserve, store, head. */
export async function startRegeneration(
  db: Db,
  owner: Owner,
  reply: { topicId: string; parent: string; price: number },
): Promise<StartedReply> {
  try {
    const { rows } = await db.query<{ bot_message_id: string | null }>(
      `with hold as (
         update users set reserved = reserved + $4
         where id = $2 and tenant = $3 and balance - reserved >= $4 returning id),
       answer as (
         insert into messages (topic_id, parent, role, text, status, reserved, lease_until)
         select $1, $5, 'bot', '', 'streaming', $4, ${lease} from hold returning id),
       touched as (
         update topics set updated_at = now(), head = (select id from answer)
         where id = $1 and exists (select 1 from answer))
       select (select id from answer) as bot_message_id`,
      [reply.topicId, owner.userId, owner.tenant, reply.price, reply.parent],
    );
    if (!rows[0].bot_message_id) throw insufficientBalance();
    return { userMessageId: reply.parent, botMessageId: rows[0].bot_message_id };
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
 * The reply is complete: stored, its reservation turned into a charge with its transaction (and a
 * low-balance notice when the charge crosses the line), in one statement; a `free` reply only gives
 * its reservation back. Null when the reply had already been ended (interrupted): nothing charged.
 */
export async function settle(
  db: Db,
  owner: Owner,
  reply: { topicId: string; messageId: string; text: string; description: string; free: boolean },
): Promise<{ cost: number; balance: number } | null> {
  const { rows } = await db.query<{ cost: string | null; balance: string | null }>(
    `with held as (select id, reserved from messages where id = $1 and status = 'streaming' for update),
     done as (
       update messages m set text = $2, status = 'complete', reserved = 0, lease_until = null,
              cost = case when $10 then 0 else held.reserved end
       from held where m.id = held.id returning m.cost, held.reserved),
     paid as (
       update users set balance = balance - (select cost from done), reserved = reserved - (select reserved from done)
       where id = $3 and tenant = $4 and exists (select 1 from done) returning balance),
     recorded as (
       insert into transactions (tenant, user_id, amount, description)
       select $4, $3, -cost, $5 from done where cost > 0),
     noticed as (
       insert into notifications (tenant, user_id, title, body)
       select $4, $3, $7, $8 from paid, done
       where done.cost > 0 and paid.balance < $9 and paid.balance + done.cost >= $9),
     touched as (update topics set updated_at = now() where id = $6 and exists (select 1 from done))
     select (select cost from done) as cost, (select balance from paid) as balance,
            (select pg_notify('${replyChannel}', $1) from done) as announced`,
    [
      reply.messageId,
      reply.text,
      owner.userId,
      owner.tenant,
      reply.description,
      reply.topicId,
      lowBalanceNotice.title,
      lowBalanceNotice.body,
      lowBalance,
      reply.free,
    ],
  );
  const { cost, balance } = rows[0];
  return cost === null || balance === null ? null : { cost: Number(cost), balance: Number(balance) };
}

/**
 * The reply ended without completing: kept as far as it got (`text`, or its last checkpoint when
 * null) with its status, its reservation released (a stopped or failed reply costs nothing). A reply
 * that produced nothing is not kept, and the head goes back to the message it answered. Answers
 * whether a reply is kept.
 */
export async function release(
  db: Db,
  owner: Owner,
  reply: { messageId: string; text: string | null; status: 'stopped' | 'failed' },
): Promise<boolean> {
  const { rows } = await db.query<{ text: string }>(
    `with held as (select id, reserved from messages where id = $1 and status = 'streaming' for update),
     ended as (
       update messages m set text = coalesce($2, m.text), status = $3, reserved = 0, lease_until = null
       from held where m.id = held.id returning held.reserved, m.text),
     freed as (
       update users set reserved = reserved - (select reserved from ended)
       where id = $4 and tenant = $5 and exists (select 1 from ended))
     select text, pg_notify('${replyChannel}', $1) from ended`,
    [reply.messageId, reply.text, reply.status, owner.userId, owner.tenant],
  );
  if (!rows.length) return false;
  if (rows[0].text) return true;
  await db.query(
    `with gone as (delete from messages where id = $1 and text = '' returning topic_id, parent)
     update topics t set head = gone.parent from gone where t.id = gone.topic_id and (t.head is null or t.head = $1)`,
    [reply.messageId],
  );
  return false;
}

/**
 * Replies whose writer is gone are marked interrupted and their reservations released: those whose
 * lease ran out, or every streaming reply when `all` (one process owns the database, and it just
 * started). Answers how many.
 */
export async function interruptOrphans(db: Db, all = false): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `with orphans as (
       select m.id, m.reserved, t.user_id from messages m join topics t on t.id = m.topic_id
       where m.status = 'streaming' and ($1 or m.lease_until < now())
       for update of m skip locked),
     ended as (
       update messages m set status = 'interrupted', reserved = 0, lease_until = null
       from orphans where m.id = orphans.id returning m.id, orphans.user_id, orphans.reserved),
     freed as (
       update users u set reserved = u.reserved - held.total
       from (select user_id, sum(reserved) as total from ended group by user_id) held where u.id = held.user_id)
     select count(*) from (select pg_notify('${replyChannel}', id) from ended) as announced`,
    [all],
  );
  return Number(rows[0].count);
}
