import type { Db } from '../db/database';
import type { Owner } from '../owner';
import { holdWhen, lowBalance, lowBalanceNotice, refund, refusal } from './reservations';

// Money of a generated image: its price is held beside its reply's own reservation (its own row in
// image_generations, so a reply's charge and the image's never mix: a token-priced reply is charged
// its tokens, the image its price), then charged when the image is stored or given back when it
// failed, each in one statement. The same image of the same reply (`key`) is one generation.

/** An image asked of a reply: to generate (its hold `id`), or generated already (`fileId`), or under way. */
export type ImageHold = { id: string } | { fileId: string } | { busy: true };

/**
 * Holds `price` of the member for one image of the reply `messageId` (one UPDATE of their row, like a
 * reply's, so simultaneous images never overrun the balance or the month's budget): a new generation,
 * or again one that failed. An image of this reply with this `key` that is stored already answers its
 * file; one still under way, `busy`. No credit → the 402 of a reply (balance or budget).
 */
export async function holdImage(
  db: Db,
  owner: Owner,
  image: { messageId: string; key: string; price: number },
): Promise<ImageHold> {
  const { rows } = await db.query<{ id: string | null; status: string | null; file_id: string | null }>(
    `with existing as (
       select id, status, file_id from image_generations where message_id = $1 and key = $5 for update),
     hold as (${holdWhen(`not exists (select 1 from existing where status <> 'failed')`)}),
     made as (
       insert into image_generations (tenant, user_id, message_id, key, reserved)
       select $3, $2, $1, $5, $4 from hold
       on conflict (message_id, key) do update set status = 'pending', reserved = excluded.reserved,
          cost = null, created_at = now()
       where image_generations.status = 'failed'
       returning id)
     select (select id from made) as id, (select status from existing) as status,
            (select file_id from existing) as file_id`,
    [image.messageId, owner.userId, owner.tenant, image.price, image.key],
  );
  const row = rows[0];
  if (row.id) return { id: row.id };
  if (row.status === 'complete' && row.file_id) return { fileId: row.file_id };
  if (row.status === 'pending') return { busy: true };
  throw await refusal(db, owner, image.price);
}

/**
 * The image is stored (as `fileId`, in the caller's transaction): its hold becomes its charge, with its
 * transaction and a low-balance notice when the charge crosses the line. Null when the hold had been
 * given back meanwhile (its reply ended long before): then nothing is charged and the caller rolls
 * back.
 */
export async function chargeImage(
  db: Db,
  owner: Owner,
  image: { id: string; fileId: string; description: string },
): Promise<{ cost: number; balance: number } | null> {
  const { rows } = await db.query<{ cost: string | null; balance: string | null }>(
    `with held as (select id, reserved from image_generations where id = $1 and status = 'pending' for update),
     done as (
       update image_generations g set status = 'complete', cost = held.reserved, reserved = 0, file_id = $4
       from held where g.id = held.id returning g.cost),
     paid as (
       update users set balance = balance - (select cost from done), reserved = reserved - (select cost from done)
       where id = $2 and tenant = $3 and exists (select 1 from done) returning balance),
     recorded as (
       insert into transactions (tenant, user_id, amount, description)
       select $3, $2, -cost, $5 from done where cost > 0),
     noticed as (
       insert into notifications (tenant, user_id, title, body)
       select $3, $2, $6, $7 from paid, done
       where done.cost > 0 and paid.balance < $8 and paid.balance + done.cost >= $8)
     select (select cost from done) as cost, (select balance from paid) as balance`,
    [
      image.id,
      owner.userId,
      owner.tenant,
      image.fileId,
      image.description,
      lowBalanceNotice.title,
      lowBalanceNotice.body,
      lowBalance,
    ],
  );
  const { cost, balance } = rows[0];
  return cost === null || balance === null ? null : { cost: Number(cost), balance: Number(balance) };
}

/** The image failed: its hold given back, nothing charged, in one statement. */
export async function releaseImage(db: Db, owner: Owner, id: string): Promise<void> {
  await db.query(
    `with held as (select id, reserved, created_at from image_generations where id = $1 and status = 'pending' for update),
     ended as (
       update image_generations g set status = 'failed', reserved = 0
       from held where g.id = held.id returning held.reserved, held.created_at),
     freed as (
       update users set reserved = reserved - (select reserved from ended),
              ${refund('(select reserved from ended)', '(select created_at from ended)')}
       where id = $2 and tenant = $3 and exists (select 1 from ended))
     select 1 from ended`,
    [id, owner.userId, owner.tenant],
  );
}

/**
 * Holds of images whose reply has ended (its writer gone, or stopped while the image was asked): given
 * back, nothing charged. Answers how many.
 */
export async function releaseOrphanImages(db: Db): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `with orphans as (
       select g.id, g.user_id, g.reserved, g.created_at from image_generations g join messages m on m.id = g.message_id
       where g.status = 'pending' and m.status <> 'streaming'
       for update of g skip locked),
     ended as (
       update image_generations g set status = 'failed', reserved = 0
       from orphans where g.id = orphans.id returning orphans.user_id, orphans.reserved, orphans.created_at),
     freed as (
       update users u set reserved = u.reserved - held.total,
              month_spent = greatest(u.month_spent - held.this_month, 0)
       from (select ended.user_id, sum(ended.reserved) as total,
                    sum(case when (date_trunc('month', ended.created_at at time zone 'utc'))::date = users.spent_month
                        then ended.reserved else 0 end) as this_month
             from ended join users on users.id = ended.user_id group by ended.user_id) held
       where u.id = held.user_id)
     select count(*) from ended`,
  );
  return Number(rows[0].count);
}
