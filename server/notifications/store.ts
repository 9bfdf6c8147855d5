import type { Db } from '../db/database';
import type { Owner } from '../owner';

/** A notification as the app lists it. */
export interface Notification {
  _id: string;
  title: string;
  body: string;
  read: boolean;
  createdAt: string;
}

interface Row {
  id: string;
  title: string;
  body: string;
  read: boolean;
  created_at: Date;
}

const columns = 'id, title, body, read, created_at';
const toNotification = (row: Row): Notification => ({
  _id: row.id,
  title: row.title,
  body: row.body,
  read: row.read,
  createdAt: new Date(row.created_at).toISOString(),
});

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

/** The user's hundred newest notifications. */
export async function listNotifications(db: Db, owner: Owner): Promise<Notification[]> {
  const { rows } = await db.query<Row>(
    `select ${columns} from notifications where user_id = $1 and tenant = $2 order by created_at desc limit 100`,
    [owner.userId, owner.tenant],
  );
  return rows.map(toNotification);
}

/** Marks the user's notification read or unread; null when it is not theirs. */
export async function markRead(
  db: Db,
  owner: Owner,
  id: string,
  read: boolean,
): Promise<Notification | null> {
  const { rows } = await db.query<Row>(
    `update notifications set read = $4 where id = $1 and user_id = $2 and tenant = $3 returning ${columns}`,
    [id, owner.userId, owner.tenant, read],
  );
  return rows[0] ? toNotification(rows[0]) : null;
}
