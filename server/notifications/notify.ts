import type { Db } from '../db/database';

/** Tells a user something happened; part of the caller's transaction when given one. */
export async function notify(
  db: Db,
  notification: { tenant: string; userId: string; title: string; body: string },
) {
  await db.query('insert into notifications (tenant, user_id, title, body) values ($1, $2, $3, $4)', [
    notification.tenant,
    notification.userId,
    notification.title,
    notification.body,
  ]);
}
