import type { Db } from '../db/database';
import { notFound } from '../errors';
import { listFiles } from '../files/store';
import { listMemories, readPersonalization } from '../memories/store';
import type { Owner } from '../owner';
import { uniqueViolation } from '../schemas';
import { listShares } from '../shares/store';

const iso = (value: Date) => new Date(value).toISOString();

/** The user record of `GET /api/v1/user/me`. */
export async function readUser(db: Db, owner: Owner) {
  const { rows } = await db.query<{
    id: string;
    username: string;
    display_name: string;
    email: string;
    role: string;
    created_at: Date;
  }>('select id, username, display_name, email, role, created_at from users where id = $1 and tenant = $2', [
    owner.userId,
    owner.tenant,
  ]);
  const user = rows[0];
  if (!user) throw notFound('User');
  return {
    _id: user.id,
    username: user.username,
    displayName: user.display_name,
    email: user.email,
    organization: owner.tenant,
    role: user.role,
    createdAt: iso(user.created_at),
  };
}

/** Changes the user's display name and username (null: kept); false when the username is taken. */
export async function updateProfile(
  db: Db,
  owner: Owner,
  changes: { displayName: string | null; username: string | null },
): Promise<boolean> {
  try {
    await db.query(
      'update users set display_name = coalesce($3, display_name), username = coalesce($4, username) where id = $1 and tenant = $2',
      [owner.userId, owner.tenant, changes.displayName, changes.username],
    );
    return true;
  } catch (error) {
    if (uniqueViolation(error)) return false;
    throw error;
  }
}

/** Whether the user is the organization's last active owner (who cannot leave it). */
export async function isLastOwner(db: Db, owner: Owner): Promise<boolean> {
  const { rows } = await db.query<{ role: string; others: string }>(
    `select role, (select count(*) from users o where o.tenant = u.tenant and o.role = 'owner'
                     and o.status = 'active' and o.id <> u.id) as others
     from users u where u.id = $1 and u.tenant = $2`,
    [owner.userId, owner.tenant],
  );
  return rows[0]?.role === 'owner' && Number(rows[0].others) === 0;
}

/** Deletes the account: topics, messages, transactions, notifications and sessions go with it (on delete cascade). */
export async function deleteAccount(db: Db, owner: Owner): Promise<void> {
  await db.query('delete from users where id = $1 and tenant = $2', [owner.userId, owner.tenant]);
}

/** Everything Parley keeps about the user, for "Download my data". */
export async function exportUser(db: Db, owner: Owner) {
  const account = await readUser(db, owner);
  const params = [owner.userId, owner.tenant];
  const [billing, topics, messages, transactions, notifications, files] = await Promise.all([
    db.query<{ balance: string; currency: string }>(
      'select balance, currency from users where id = $1 and tenant = $2',
      params,
    ),
    db.query<{ id: string; title: string; bot: string; created_at: Date; updated_at: Date }>(
      `select t.id, t.title, b.name as bot, t.created_at, t.updated_at from topics t join bots b on b.id = t.bot_id
       where t.user_id = $1 and t.tenant = $2 order by t.created_at`,
      params,
    ),
    db.query<{
      id: string;
      topic_id: string;
      role: string;
      text: string;
      status: string;
      created_at: Date;
      files: { _id: string; name: string; type: string; size: number }[] | null;
    }>(
      `select m.id, m.topic_id, m.role, m.text, m.status, m.created_at,
              (select json_agg(json_build_object('_id', mf.file_id, 'name', mf.name, 'type', mf.type,
                      'size', mf.size) order by mf.position)
               from message_files mf where mf.message_id = m.id) as files
       from messages m join topics t on t.id = m.topic_id
       where t.user_id = $1 and t.tenant = $2 order by m.seq`,
      params,
    ),
    db.query<{ id: string; amount: string; description: string; created_at: Date }>(
      'select id, amount, description, created_at from transactions where user_id = $1 and tenant = $2 order by created_at',
      params,
    ),
    db.query<{ id: string; title: string; body: string; read: boolean; created_at: Date }>(
      'select id, title, body, read, created_at from notifications where user_id = $1 and tenant = $2 order by created_at',
      params,
    ),
    listFiles(db, owner),
  ]);
  const [shares, personalization, memories, feedback] = await Promise.all([
    listShares(db, owner),
    readPersonalization(db, owner),
    listMemories(db, owner),
    // Kept when the conversation is deleted (its message then null): still the user's words.
    db.query<{
      message_id: string | null;
      rating: string;
      reason: string;
      created_at: Date;
      updated_at: Date;
    }>(
      `select message_id, rating, reason, created_at, updated_at from feedback
       where user_id = $1 and tenant = $2 order by created_at`,
      params,
    ),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    account: {
      ...account,
      balance: Number(billing.rows[0]?.balance ?? 0),
      currency: billing.rows[0]?.currency,
    },
    topics: topics.rows.map((topic) => ({
      _id: topic.id,
      title: topic.title,
      bot: topic.bot,
      createdAt: iso(topic.created_at),
      updatedAt: iso(topic.updated_at),
      messages: messages.rows
        .filter((message) => message.topic_id === topic.id)
        .map((message) => ({
          _id: message.id,
          role: message.role,
          text: message.text,
          status: message.status,
          ...(message.files
            ? { files: message.files.map((file) => ({ ...file, size: Number(file.size) })) }
            : {}),
          createdAt: iso(message.created_at),
        })),
    })),
    /** The user's files (their bytes are in the ZIP download). */
    files,
    /** The conversations the user shared: their links and who may open them. */
    shares,
    /** Custom instructions and the "Use memory" switch, and what Parley remembers about the user. */
    personalization,
    memories,
    /** The thumbs the user gave replies, with their reasons. */
    feedback: feedback.rows.map((row) => ({
      message: row.message_id,
      rating: row.rating,
      reason: row.reason,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    })),
    transactions: transactions.rows.map((row) => ({
      _id: row.id,
      amount: Number(row.amount),
      description: row.description,
      createdAt: iso(row.created_at),
    })),
    notifications: notifications.rows.map((row) => ({
      _id: row.id,
      title: row.title,
      body: row.body,
      read: row.read,
      createdAt: iso(row.created_at),
    })),
  };
}
