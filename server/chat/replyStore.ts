import { replyChannel } from '../db/channels';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';
import type { Citation, Turn } from '../providers/types';

/** Below this after a charge, the user is told their balance is low. */
export const lowBalance = 1;
export const lowBalanceNotice = {
  title: 'Your balance is low',
  body: 'Your balance is under 1.00. Replies from paid bots stop when it runs out.',
};

/** How long a reply's writer may stay silent before the reply counts as cut off. */
export const leaseSeconds = 5;

export const replyInProgress = () =>
  new ApiError(
    409,
    'A reply is still being written in this conversation. Wait for it or stop it.',
    'REPLY_IN_PROGRESS',
  );
export const insufficientBalance = () => new ApiError(402, 'Insufficient balance', 'INSUFFICIENT_BALANCE');

/** The first day of the next calendar month (UTC), as `1 September 2025`. */
export function budgetResetDate(now = new Date()): string {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(next);
}
export const budgetReached = (now = new Date()) =>
  new ApiError(
    402,
    `You have reached your monthly budget. Replies start again on ${budgetResetDate(now)}.`,
    'BUDGET_REACHED',
  );

/** The first day of this calendar month (UTC), in SQL. */
const thisMonth = `(date_trunc('month', now() at time zone 'utc'))::date`;
/** A member's spend this month so far (their row's counter, zero when it counts an earlier month). */
const spentThisMonth = (users = 'users') =>
  `(case when ${users}.spent_month = ${thisMonth} then ${users}.month_spent else 0 end)`;
/**
 * The smallest monthly budget of the member's groups (null: none limits them), for the member `$2`
 * of the organization `$3`.
 */
const budgetOf = `(select min(g.monthly_budget) from group_members gm join groups g on g.id = gm.group_id
   where gm.user_id = $2 and g.tenant = $3)`;
/**
 * Reserves `$4` of the member `$2` of `$3`, when `also` (SQL) holds: when their balance covers it
 * and, with a budget, their spend this month is under it and stays within it. One UPDATE of their
 * row: concurrent reservations wait for its lock and check the balance and the month's spend again
 * as they stand then (on PostgreSQL too), so simultaneous messages can never overrun either.
 */
const holdWhen = (also: string) => `update users set reserved = reserved + $4,
           month_spent = ${spentThisMonth()} + $4, spent_month = ${thisMonth}
         where id = $2 and tenant = $3 and ${also} and balance - reserved >= $4
           and (${budgetOf} is null or (${spentThisMonth()} < ${budgetOf} and ${spentThisMonth()} + $4 <= ${budgetOf}))
         returning id`;
export const hold = holdWhen('true');

/** Whether the member's spend this month leaves no room for `price` under their groups' budget. */
export async function overBudget(db: Db, owner: Owner, price: number): Promise<boolean> {
  const { rows } = await db.query<{ over: boolean | null }>(
    `select ${budgetOf} is not null and (${spentThisMonth()} >= ${budgetOf} or ${spentThisMonth()} + $1 > ${budgetOf}) as over
     from users where id = $2 and tenant = $3`,
    [price, owner.userId, owner.tenant],
  );
  return rows[0]?.over === true;
}

/** Why a reservation was refused: the budget, else the balance. */
export async function refusal(db: Db, owner: Owner, price: number) {
  return (await overBudget(db, owner, price)) ? budgetReached() : insufficientBalance();
}

/**
 * What a reply's end gives back to the month's spend: `amount`, when the counter still counts the
 * month the reply was reserved in (`reservedAt`, SQL).
 */
export const refund = (amount: string, reservedAt: string) =>
  `month_spent = case when spent_month = (date_trunc('month', ${reservedAt} at time zone 'utc'))::date
                 then greatest(month_spent - ${amount}, 0) else month_spent end`;

export interface StartedReply {
  /** The user's message the reply answers: stored just now, or earlier for a regenerated reply. */
  userMessageId: string;
  botMessageId: string;
}

export const lease = `now() + make_interval(secs => ${leaseSeconds})`;
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
       hold as (${hold}),
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
    if (!user_message_id || !bot_message_id) throw await refusal(db, owner, reply.price);
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
      `with hold as (${hold}),
       answer as (
         insert into messages (topic_id, parent, role, text, status, reserved, lease_until)
         select $1, $5, 'bot', '', 'streaming', $4, ${lease} from hold returning id),
       touched as (
         update topics set updated_at = now(), head = (select id from answer)
         where id = $1 and exists (select 1 from answer))
       select (select id from answer) as bot_message_id`,
      [reply.topicId, owner.userId, owner.tenant, reply.price, reply.parent],
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
  reply: { topicId: string; messageId: string; price: number },
): Promise<ContinuedReply> {
  try {
    const { rows } = await db.query<{
      continuable: boolean;
      bot_message_id: string | null;
      parent: string;
      text: string;
    }>(
      `with target as (
         select m.id from messages m
         where m.id = $5 and m.topic_id = $1 and m.role = 'bot' and m.status in ('stopped', 'interrupted', 'failed')
           and not exists (select 1 from messages c where c.parent = m.id)
         for update),
       hold as (${holdWhen('exists (select 1 from target)')}),
       answer as (
         update messages m set status = 'streaming', reserved = $4, reserved_at = now(), lease_until = ${lease}
         from target where m.id = target.id and exists (select 1 from hold)
         returning m.id, m.parent, m.text),
       touched as (
         update topics set updated_at = now(), head = (select id from answer)
         where id = $1 and exists (select 1 from answer))
       select exists (select 1 from target) as continuable, answer.id as bot_message_id, answer.parent, answer.text
       from (select 1) as one left join answer on true`,
      [reply.topicId, owner.userId, owner.tenant, reply.price, reply.messageId],
    );
    const row = rows[0];
    if (!row.continuable) throw notContinuable();
    if (!row.bot_message_id) throw await refusal(db, owner, reply.price);
    return { userMessageId: row.parent, botMessageId: row.bot_message_id, text: row.text };
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
    `with held as (select id, reserved, reserved_at from messages where id = $1 and status = 'streaming' for update),
     done as (
       update messages m set text = $2, status = 'complete', reserved = 0, lease_until = null,
              cost = case when $10 then 0 else held.reserved end
       from held where m.id = held.id returning m.cost, held.reserved, held.reserved_at),
     paid as (
       update users set balance = balance - (select cost from done), reserved = reserved - (select reserved from done),
              ${refund('(select reserved - cost from done)', '(select reserved_at from done)')}
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
 * that produced nothing (no text, no tool call) is not kept, and the head goes back to the message it
 * answered. Answers whether a reply is kept.
 */
export async function release(
  db: Db,
  owner: Owner,
  reply: { messageId: string; text: string | null; status: 'stopped' | 'failed' },
): Promise<boolean> {
  const { rows } = await db.query<{ text: string }>(
    `with held as (select id, reserved, reserved_at from messages where id = $1 and status = 'streaming' for update),
     ended as (
       update messages m set text = coalesce($2, m.text), status = $3, reserved = 0, lease_until = null
       from held where m.id = held.id returning held.reserved, held.reserved_at, m.text),
     freed as (
       update users set reserved = reserved - (select reserved from ended),
              ${refund('(select reserved from ended)', '(select reserved_at from ended)')}
       where id = $4 and tenant = $5 and exists (select 1 from ended))
     select text, pg_notify('${replyChannel}', $1) from ended`,
    [reply.messageId, reply.text, reply.status, owner.userId, owner.tenant],
  );
  if (!rows.length) return false;
  if (rows[0].text) return true;
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

/**
 * Replies whose writer is gone are marked interrupted and their reservations released: those whose
 * lease ran out, or every streaming reply when `all` (one process owns the database, and it just
 * started). Answers how many.
 */
export async function interruptOrphans(db: Db, all = false): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `with orphans as (
       select m.id, m.reserved, m.reserved_at, t.user_id from messages m join topics t on t.id = m.topic_id
       where m.status = 'streaming' and ($1 or m.lease_until < now())
       for update of m skip locked),
     ended as (
       update messages m set status = 'interrupted', reserved = 0, lease_until = null
       from orphans where m.id = orphans.id returning m.id, orphans.user_id, orphans.reserved, orphans.reserved_at),
     cut as (
       update tool_steps s set status = 'error', error = 'The reply was interrupted before this call ended.'
       from ended where s.message_id = ended.id and s.status in ('awaiting_approval', 'running')),
     freed as (
       update users u set reserved = u.reserved - held.total,
              month_spent = greatest(u.month_spent - held.this_month, 0)
       from (select ended.user_id, sum(ended.reserved) as total,
                    sum(case when (date_trunc('month', ended.reserved_at at time zone 'utc'))::date = users.spent_month
                        then ended.reserved else 0 end) as this_month
             from ended join users on users.id = ended.user_id group by ended.user_id) held
       where u.id = held.user_id)
     select count(*) from (select pg_notify('${replyChannel}', id) from ended) as announced`,
    [all],
  );
  return Number(rows[0].count);
}
