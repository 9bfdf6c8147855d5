import { randomBytes, randomUUID } from 'node:crypto';
import { type BotAccess, botAccess, botNotForYou } from '../access/groups';
import type { RunnableBot } from '../bots/availability';
import { readTopic, topicNotFound } from '../chat/topics';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { defaultModelProvider } from '../models/store';
import type { Owner } from '../owner';

export type Audience = 'organization' | 'public';

/** One message of a snapshot: who said it, what, and when; nothing else of the message travels. */
export interface SharedMessage {
  role: 'user' | 'bot';
  text: string;
  createdAt: string;
}

interface ShareRow {
  id: string;
  topic_id: string;
  audience: Audience;
  title: string;
  bot_id: string;
  bot_name: string;
  platform: string;
  messages: SharedMessage[];
  shared_at: Date;
}

/** 144 random bits, base64url: 24 characters nobody guesses. */
const newShareId = () => randomBytes(18).toString('base64url');

/** The link of a share, on the host of its organization (where the app that asked is served). */
export const shareUrl = (id: string) => `/s/${id}`;

/** Any share nobody may see here: revoked, never made, another organization's, or not for this viewer. */
export const shareNotFound = () => new ApiError(404, 'This shared conversation does not exist.', 'NOT_FOUND');

const publicSharingOff = () =>
  new ApiError(
    403,
    'Public links are turned off in this organization. Share it with the organization instead.',
    'PUBLIC_SHARING_OFF',
    'audience',
  );

const summary = (row: ShareRow) => ({
  _id: row.id,
  url: shareUrl(row.id),
  audience: row.audience,
  topic: row.topic_id,
  title: row.title,
  messages: row.messages.length,
  sharedAt: new Date(row.shared_at).toISOString(),
});
export type ShareSummary = ReturnType<typeof summary>;

async function publicSharing(db: Db, tenant: string): Promise<boolean> {
  const { rows } = await db.query<{ public_sharing: boolean }>(
    'select public_sharing from organizations where subdomain = $1',
    [tenant],
  );
  return rows[0]?.public_sharing ?? false;
}

/**
 * The title a snapshot shows. A topic is titled after its first message when it has none, and that
 * message may be on a branch the snapshot leaves out: then the title is the snapshot's own first
 * message, as the server would have titled it, so no word of another branch is shown.
 */
async function snapshotTitle(
  db: Db,
  topicId: string,
  title: string,
  branch: { id: string; role: string; text: string }[],
): Promise<string> {
  const shown = new Set(branch.map((message) => message.id));
  const { rows } = await db.query<{ id: string; start: string }>(
    "select id, left(text, 80) as start from messages where topic_id = $1 and role = 'user'",
    [topicId],
  );
  const fromHidden = rows.some((row) => !shown.has(row.id) && row.start === title);
  const first = rows.find((row) => row.id === branch.find((message) => message.role === 'user')?.id);
  return fromHidden ? (first?.start ?? '') : title;
}

/**
 * Shares the owner's topic: a snapshot of the branch that ends at `leaf` (by default the head, the
 * branch on screen), finished messages with text only. Sharing the topic again rewrites the snapshot
 * and the audience and keeps the id, so the link people have goes on working.
 */
export async function shareTopic(
  db: Db,
  owner: Owner,
  topicId: string,
  options: { audience: Audience; leaf?: string },
) {
  return db.transaction(async (tx) => {
    const { rows: topics } = await tx.query<{
      id: string;
      title: string;
      head: string | null;
      bot_id: string;
      bot_name: string;
      platform: string;
    }>(
      `select t.id, t.title, t.head, b.id as bot_id, b.name as bot_name, b.platform
       from topics t join bots b on b.id = t.bot_id
       where t.id = $1 and t.tenant = $2 and t.user_id = $3 for update of t`,
      [topicId, owner.tenant, owner.userId],
    );
    const topic = topics[0];
    if (!topic) throw topicNotFound();
    if (options.audience === 'public' && !(await publicSharing(tx, owner.tenant))) throw publicSharingOff();
    const leaf = options.leaf ?? topic.head;
    if (options.leaf !== undefined) {
      const { rows } = await tx.query('select 1 from messages where id = $1 and topic_id = $2', [
        options.leaf,
        topicId,
      ]);
      if (!rows[0]) throw new ApiError(404, 'This message does not exist.', 'NOT_FOUND', 'leaf');
    }
    const { rows: branch } = await tx.query<{
      id: string;
      role: 'user' | 'bot';
      text: string;
      created_at: Date;
    }>(
      `with recursive branch as (
         select id, parent, role, text, status, created_at, 0 as depth from messages
         where id = $1 and topic_id = $2
         union all
         select m.id, m.parent, m.role, m.text, m.status, m.created_at, b.depth + 1
         from messages m join branch b on m.id = b.parent)
       select id, role, text, created_at from branch
       where text <> '' and status <> 'streaming' order by depth desc`,
      [leaf, topicId],
    );
    if (!branch.length)
      throw new ApiError(409, 'This conversation has no messages to share yet.', 'NOTHING_TO_SHARE');
    const title = await snapshotTitle(tx, topicId, topic.title, branch);
    const messages: SharedMessage[] = branch.map((row) => ({
      role: row.role,
      text: row.text,
      createdAt: new Date(row.created_at).toISOString(),
    }));
    const { rows } = await tx.query<ShareRow>(
      `insert into shares (id, tenant, user_id, topic_id, audience, title, bot_id, bot_name, platform, messages)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)
       on conflict (topic_id) do update set
         audience = excluded.audience, title = excluded.title, bot_id = excluded.bot_id,
         bot_name = excluded.bot_name, platform = excluded.platform, messages = excluded.messages,
         shared_at = now()
       returning id, topic_id, audience, title, bot_id, bot_name, platform, messages, shared_at`,
      [
        newShareId(),
        owner.tenant,
        owner.userId,
        topicId,
        options.audience,
        title,
        topic.bot_id,
        topic.bot_name,
        topic.platform,
        JSON.stringify(messages),
      ],
    );
    return summary(rows[0]);
  });
}

/** The owner's shares in the organization, newest first; of one topic only when `topicId` is given. */
export async function listShares(db: Db, owner: Owner, topicId?: string) {
  const { rows } = await db.query<ShareRow>(
    `select id, topic_id, audience, title, bot_id, bot_name, platform, messages, shared_at from shares
     where tenant = $1 and user_id = $2 and ($3::text is null or topic_id = $3)
     order by shared_at desc, id limit 500`,
    [owner.tenant, owner.userId, topicId ?? null],
  );
  return rows.map(summary);
}

/**
 * A share as a viewer may see it, read from the database on every call (a revocation holds on every
 * node at once): in the request's organization only; a public one for anyone while the organization
 * allows public links; an organization one for a signed-in member of it. Anything else is 404.
 */
async function visibleShare(db: Db, tenant: string, id: string, member: boolean) {
  const { rows } = await db.query<ShareRow & { public_sharing: boolean }>(
    `select s.id, s.topic_id, s.audience, s.title, s.bot_id, s.bot_name, s.platform, s.messages,
            s.shared_at, o.public_sharing
     from shares s join organizations o on o.subdomain = s.tenant
     where s.id = $1 and s.tenant = $2`,
    [id, tenant],
  );
  const row = rows[0];
  if (!row) throw shareNotFound();
  if (row.audience === 'public' ? !row.public_sharing : !member) throw shareNotFound();
  return row;
}

/** The snapshot: `{ title, bot, messages: [{ role, text, createdAt }], sharedAt }` and its audience. */
export async function readShare(db: Db, tenant: string, id: string, member: boolean) {
  const row = await visibleShare(db, tenant, id, member);
  return {
    _id: row.id,
    title: row.title,
    bot: { _id: row.bot_id, name: row.bot_name, platform: { name: row.platform } },
    messages: row.messages.map(({ role, text, createdAt }) => ({ role, text, createdAt })),
    sharedAt: new Date(row.shared_at).toISOString(),
    audience: row.audience,
  };
}

/** Revokes one of the owner's shares: the row goes, and the link answers 404 from then on. */
export async function revokeShare(db: Db, owner: Owner, id: string) {
  const { rows } = await db.query(
    'delete from shares where id = $1 and tenant = $2 and user_id = $3 returning id',
    [id, owner.tenant, owner.userId],
  );
  if (!rows[0]) throw shareNotFound();
}

/**
 * "Continue this conversation": a new topic of the viewer with the share's bot, holding a copy of the
 * snapshot's messages as one branch (its last message the head), titled like the share.
 */
export async function continueShare(
  db: Db,
  viewer: Owner,
  id: string,
  canRun: (bot: RunnableBot) => boolean,
) {
  const topicId = await db.transaction(async (tx) => {
    const share = await visibleShare(tx, viewer.tenant, id, true);
    const { rows: bots } = await tx.query<RunnableBot & BotAccess & { name: string }>(
      `select b.name, b.active, b.platform, b.config, ${botAccess('b', '$3')},
              ${defaultModelProvider('b.id')} as model_provider
       from bots b where b.id = $1 and b.tenant = $2`,
      [share.bot_id, viewer.tenant, viewer.userId],
    );
    if (!bots[0]) throw new ApiError(404, 'The bot of this conversation no longer exists.', 'BOT_NOT_FOUND');
    // A bot limited to groups the viewer is in none of: they may read the share, not continue it.
    if (!bots[0].may_use) throw botNotForYou(bots[0]);
    if (!canRun(bots[0]))
      throw new ApiError(409, 'The bot of this conversation is not available right now.', 'BOT_INACTIVE');
    const { rows } = await tx.query<{ id: string }>(
      'insert into topics (tenant, user_id, bot_id, title) values ($1, $2, $3, $4) returning id',
      [viewer.tenant, viewer.userId, share.bot_id, share.title],
    );
    const created = rows[0].id;
    const ids = share.messages.map(() => randomUUID());
    await tx.query(
      `insert into messages (id, topic_id, parent, role, text, created_at)
       select m.id, $1, m.parent, m.role, m.text, m.created_at
       from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
         with ordinality as m (id, parent, role, text, created_at, position)
       order by m.position`,
      [
        created,
        ids,
        ids.map((_, index) => (index ? ids[index - 1] : null)),
        share.messages.map((message) => message.role),
        share.messages.map((message) => message.text),
        share.messages.map((message) => message.createdAt),
      ],
    );
    await tx.query('update topics set head = $2 where id = $1', [created, ids.at(-1) ?? null]);
    return created;
  });
  return readTopic(db, viewer, topicId);
}
