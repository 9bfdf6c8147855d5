import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';

export type Rating = 'up' | 'down';

/** A member's thumbs on a reply, with the reason they gave (empty when none). */
export interface Feedback {
  rating: Rating;
  reason: string;
}

const messageNotFound = () => new ApiError(404, 'This message does not exist.', 'NOT_FOUND');

/**
 * Sets the member's thumbs on a bot reply of their own topic (another member's topic or message is
 * 404), or with `rating` null takes it back. A reason left out is kept while the rating stays and
 * dropped when it changes (it was given for the other thumb). The reply's bot and model are kept with
 * it, so the admins' figures outlive the conversation.
 */
export async function rateReply(
  db: Db,
  owner: Owner,
  at: { topic: string; message: string },
  rating: Rating | null,
  reason: string | undefined,
): Promise<Feedback | null> {
  const { rows: found } = await db.query<{ role: string }>(
    `select m.role from messages m join topics t on t.id = m.topic_id
     where m.id = $1 and t.id = $2 and t.tenant = $3 and t.user_id = $4`,
    [at.message, at.topic, owner.tenant, owner.userId],
  );
  if (!found[0]) throw messageNotFound();
  if (found[0].role !== 'bot')
    throw new ApiError(400, 'Only a reply can be rated.', 'NOT_A_REPLY', 'messageId');
  if (rating === null) {
    await db.query('delete from feedback where message_id = $1 and tenant = $2', [at.message, owner.tenant]);
    return null;
  }
  // One statement from the message: a topic deleted meanwhile leaves nothing half-written (404).
  const { rows } = await db.query<Feedback>(
    `insert into feedback (tenant, user_id, message_id, bot_id, model_id, rating, reason)
     select t.tenant, t.user_id, m.id, t.bot_id, m.model_id, $5, coalesce($6, '')
     from messages m join topics t on t.id = m.topic_id
     where m.id = $1 and t.id = $2 and t.tenant = $3 and t.user_id = $4 and m.role = 'bot'
     on conflict (message_id) do update set
       rating = excluded.rating,
       reason = case when $6::text is not null then excluded.reason
                     when feedback.rating = excluded.rating then feedback.reason else '' end,
       updated_at = now()
     returning rating, reason`,
    [at.message, at.topic, owner.tenant, owner.userId, rating, reason ?? null],
  );
  if (!rows[0]) throw messageNotFound();
  return rows[0];
}
