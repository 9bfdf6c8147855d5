import { replyChannel } from '../db/channels';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';
import { type Pricing, type TokenUsage, tokenCharge, tokenPriced } from './tokens';

// Money of a reply, chat or API alike: its price is held before the first token (the member's
// balance and their groups' monthly budget, in one UPDATE of their row), then settled (charged) or
// released (given back) in one statement with the reply's own row.

/** Below this after a charge, the user is told their balance is low. */
export const lowBalance = 1;
export const lowBalanceNotice = {
  title: 'Your balance is low',
  body: 'Your balance is under 1.00. Replies from paid bots stop when it runs out.',
};

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
export const holdWhen = (also: string) => `update users set reserved = reserved + $4,
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

/** A table whose rows hold a reservation while they stream: a chat reply, an API call or an audio call. */
export interface Reservations {
  table: 'messages' | 'api_calls' | 'audio_calls';
  /** When the price was held (the month it counts in). */
  reservedAt: string;
  /** The column of tool_steps naming the row (null: its rows call no tools). */
  stepKey: 'message_id' | 'api_call_id' | null;
  /** The rows and their member, for the orphans' statement (`r` is the row). */
  withMember: string;
  member: string;
  /** Chat replies: each end is announced on the reply channel (followers on other nodes) and touches the topic. */
  announced: boolean;
}

export const replyReservations: Reservations = {
  table: 'messages',
  reservedAt: 'reserved_at',
  stepKey: 'message_id',
  withMember: 'messages r join topics t on t.id = r.topic_id',
  member: 't.user_id',
  announced: true,
};

export const callReservations: Reservations = {
  table: 'api_calls',
  reservedAt: 'created_at',
  stepKey: 'api_call_id',
  withMember: 'api_calls r',
  member: 'r.user_id',
  announced: false,
};

export const audioReservations: Reservations = {
  table: 'audio_calls',
  reservedAt: 'created_at',
  stepKey: null,
  withMember: 'audio_calls r',
  member: 'r.user_id',
  announced: false,
};

/** Numbered SQL parameters: `param(value)` answers its `$n`. */
function parameters() {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  return { values, param };
}

/** `column = $n, …` for the row's own columns an end writes (the text, token counts): names from our code only. */
const assignments = (set: Record<string, unknown>, param: (value: unknown) => string) =>
  Object.entries(set).map(([column, value]) => `, ${column} = ${param(value)}`);

const held = (on: Reservations, id: string) =>
  `held as (select id, reserved, ${on.reservedAt} as reserved_at from ${on.table} where id = ${id} and status = 'streaming' for update)`;

/**
 * The row is complete: its reservation turned into a charge with its transaction (and a low-balance
 * notice when the charge crosses the line), in one statement with `set` (its text, its usage); a
 * `free` one only gives its reservation back. A reply on a token-priced model (`tokens`) is charged
 * what its tokens cost, never more than it held; any other the price it held. Null when the row had
 * already been ended (cut off, stopped elsewhere): nothing charged.
 */
export async function settle(
  db: Db,
  owner: Owner,
  on: Reservations,
  row: {
    id: string;
    description: string;
    free: boolean;
    set: Record<string, unknown>;
    tokens?: { pricing: Pricing | null; usage: TokenUsage };
    /** What the row costs when known only at its end (an audio's minutes): never more than it held. */
    charge?: number;
  },
): Promise<{ cost: number; balance: number } | null> {
  const { values, param } = parameters();
  const id = param(row.id);
  const [user, tenant] = [param(owner.userId), param(owner.tenant)];
  const limit = param(lowBalance);
  const pricing = row.tokens?.pricing ?? null;
  const measured =
    row.charge ??
    (row.tokens && pricing && tokenPriced(pricing) ? tokenCharge(pricing, row.tokens.usage) : null);
  const charged = measured === null ? 'held.reserved' : `least(held.reserved, ${param(measured)}::numeric)`;
  const { rows } = await db.query<{ cost: string | null; balance: string | null }>(
    `with ${held(on, id)},
     done as (
       update ${on.table} r set status = 'complete', reserved = 0, lease_until = null,
              cost = case when ${param(row.free)} then 0 else ${charged} end${assignments(row.set, param).join('')}
       from held where r.id = held.id returning r.cost, held.reserved, held.reserved_at${on.announced ? ', r.topic_id' : ''}),
     paid as (
       update users set balance = balance - (select cost from done), reserved = reserved - (select reserved from done),
              ${refund('(select reserved - cost from done)', '(select reserved_at from done)')}
       where id = ${user} and tenant = ${tenant} and exists (select 1 from done) returning balance),
     recorded as (
       insert into transactions (tenant, user_id, amount, description)
       select ${tenant}, ${user}, -cost, ${param(row.description)} from done where cost > 0),
     noticed as (
       insert into notifications (tenant, user_id, title, body)
       select ${tenant}, ${user}, ${param(lowBalanceNotice.title)}, ${param(lowBalanceNotice.body)} from paid, done
       where done.cost > 0 and paid.balance < ${limit} and paid.balance + done.cost >= ${limit})
     ${on.announced ? ', touched as (update topics set updated_at = now() where id = (select topic_id from done))' : ''}
     select (select cost from done) as cost, (select balance from paid) as balance
       ${on.announced ? `, (select pg_notify('${replyChannel}', ${id}) from done) as announced` : ''}`,
    values,
  );
  const { cost, balance } = rows[0];
  return cost === null || balance === null ? null : { cost: Number(cost), balance: Number(balance) };
}

/**
 * The row ended without completing (stopped, failed): marked so with `set` (its text so far), its
 * reservation given back, in one statement. False when it had already been ended.
 */
export async function release(
  db: Db,
  owner: Owner,
  on: Reservations,
  row: { id: string; status: 'stopped' | 'failed'; set: Record<string, unknown> },
): Promise<boolean> {
  const { values, param } = parameters();
  const id = param(row.id);
  const { rows } = await db.query(
    `with ${held(on, id)},
     ended as (
       update ${on.table} r set status = ${param(row.status)}, reserved = 0, lease_until = null${assignments(row.set, param).join('')}
       from held where r.id = held.id returning held.reserved, held.reserved_at),
     freed as (
       update users set reserved = reserved - (select reserved from ended),
              ${refund('(select reserved from ended)', '(select reserved_at from ended)')}
       where id = ${param(owner.userId)} and tenant = ${param(owner.tenant)} and exists (select 1 from ended))
     select ${on.announced ? `pg_notify('${replyChannel}', ${id})` : '1'} from ended`,
    values,
  );
  return rows.length > 0;
}

/**
 * Rows whose writer is gone are marked interrupted, their open tool steps ended and their
 * reservations released: those whose lease ran out, or every streaming one when `all` (one process
 * owns the database, and it just started); never those this node is writing (`mine`: a lease that
 * ran out while its event loop was busy does not mean its writer is gone). Answers how many.
 */
export async function releaseOrphans(
  db: Db,
  on: Reservations,
  all = false,
  mine: string[] = [],
): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `with orphans as (
       select r.id, r.reserved, r.${on.reservedAt} as reserved_at, ${on.member} as user_id from ${on.withMember}
       where r.status = 'streaming' and ($1 or r.lease_until < now()) and not (r.id = any($2::text[]))
       for update of r skip locked),
     ended as (
       update ${on.table} r set status = 'interrupted', reserved = 0, lease_until = null
       from orphans where r.id = orphans.id returning r.id, orphans.user_id, orphans.reserved, orphans.reserved_at),
     ${
       on.stepKey
         ? `cut as (
       update tool_steps s set status = 'error', error = 'The reply was interrupted before this call ended.'
       from ended where s.${on.stepKey} = ended.id and s.status in ('awaiting_approval', 'running')),`
         : ''
     }
     freed as (
       update users u set reserved = u.reserved - held.total,
              month_spent = greatest(u.month_spent - held.this_month, 0)
       from (select ended.user_id, sum(ended.reserved) as total,
                    sum(case when (date_trunc('month', ended.reserved_at at time zone 'utc'))::date = users.spent_month
                        then ended.reserved else 0 end) as this_month
             from ended join users on users.id = ended.user_id group by ended.user_id) held
       where u.id = held.user_id)
     select count(*) from (select ${on.announced ? `pg_notify('${replyChannel}', id)` : '1'} from ended) as announced`,
    [all, mine],
  );
  return Number(rows[0].count);
}
