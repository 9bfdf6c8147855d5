import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mayUseBot, seesBot } from '../access/groups';
import {
  callReservations,
  hold,
  refusal,
  releaseOrphans,
  release as releaseReservation,
  settle as settleReservation,
} from '../billing/reservations';
import type { Pricing } from '../billing/tokens';
import type { Db } from '../db/database';
import { defaultModelProvider } from '../models/store';
import type { Owner } from '../owner';
import type { ReplyUsage } from '../providers/types';
import { lease, leaseSeconds } from '../replies/lease';

/** What every key starts with, so a leaked one is recognisable (secret scanners, logs). */
export const keyPrefix = 'pk-parley-';

/** The SHA-256 (hex) a key is stored as: the key has 256 random bits, so no slow hash is needed. */
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** A key as its owner lists it: never the key itself. */
export interface ApiKey {
  _id: string;
  name: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  last4: string;
}

interface KeyRow {
  id: string;
  name: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  last4: string;
}

const toKey = (row: KeyRow): ApiKey => ({
  _id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at?.toISOString() ?? null,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  last4: row.last4,
});

/**
 * A new key of the member: stored hashed, answered this once, with the record the list shows (so the
 * Profile panel lists it without asking again).
 */
export async function createKey(
  db: Db,
  owner: Owner,
  name: string,
  expiresAt: Date | null,
): Promise<ApiKey & { key: string }> {
  const key = `${keyPrefix}${randomBytes(32).toString('base64url')}`;
  const { rows } = await db.query<KeyRow>(
    `insert into api_keys (tenant, user_id, name, key_hash, last4, expires_at)
     values ($1, $2, $3, $4, $5, $6) returning id, name, created_at, expires_at, last_used_at, last4`,
    [owner.tenant, owner.userId, name, hashKey(key), key.slice(-4), expiresAt],
  );
  return { ...toKey(rows[0]), key };
}

/** A bot as the API lists and runs it, with whether the key's holder may use it (their groups). */
export interface ApiBot {
  id: string;
  name: string;
  price: string;
  active: boolean;
  platform: string;
  config: Record<string, unknown>;
  /** When it was made, in seconds since 1970. */
  created: number;
  /** Where its default catalogue model runs ('' the server's own; null: it has none). */
  model_provider: string | null;
  may_use: boolean;
  /** A member's bot an administrator retired. */
  retired: boolean;
}

const apiBotColumns = `b.id, b.name, b.price, b.active, b.platform, b.config, b.retired,
  extract(epoch from b.created_at)::bigint as created, ${defaultModelProvider('b.id')} as model_provider`;

/** The organization's bots the member may use, in the catalogue's order (retired and unavailable ones too). */
export async function usableBots(db: Db, owner: Owner): Promise<ApiBot[]> {
  const { rows } = await db.query<ApiBot>(
    `select ${apiBotColumns}, true as may_use from bots b
     where b.tenant = $1 and ${mayUseBot('b.id', '$2')} order by b.position, b.name`,
    [owner.tenant, owner.userId],
  );
  return rows;
}

/**
 * A bot of the member's organization by its id, whether they may use it or not; null when there is
 * none, or it is another member's bot not shared with them.
 */
export async function botById(db: Db, owner: Owner, id: string): Promise<ApiBot | null> {
  const { rows } = await db.query<ApiBot>(
    `select ${apiBotColumns}, ${mayUseBot('b.id', '$3')} as may_use from bots b
     where b.id = $1 and b.tenant = $2 and ${seesBot('b', '$3')}`,
    [id, owner.tenant, owner.userId],
  );
  return rows[0] ?? null;
}

/** Whether the organization lets its members' keys call the API (`apiAccess`). */
export async function apiAccessOf(db: Db, tenant: string): Promise<boolean> {
  const { rows } = await db.query<{ api_access: boolean }>(
    'select api_access from organizations where subdomain = $1',
    [tenant],
  );
  return rows[0]?.api_access ?? false;
}

/** The member's keys that are not revoked, newest first (expired ones too: their owner sees why). */
export async function listKeys(db: Db, owner: Owner): Promise<ApiKey[]> {
  const { rows } = await db.query<KeyRow>(
    `select id, name, created_at, expires_at, last_used_at, last4 from api_keys
     where tenant = $1 and user_id = $2 and revoked_at is null order by created_at desc, id`,
    [owner.tenant, owner.userId],
  );
  return rows.map(toKey);
}

/** Revokes the member's key: false when it is not theirs (or already revoked). */
export async function revokeKey(db: Db, owner: Owner, id: string): Promise<boolean> {
  const { rows } = await db.query(
    `update api_keys set revoked_at = now()
     where id = $1 and tenant = $2 and user_id = $3 and revoked_at is null returning id`,
    [id, owner.tenant, owner.userId],
  );
  return rows.length > 0;
}

/**
 * The organization's keys held by everyone but owners (its members and admins) that still work: not
 * revoked, not expired. With SSO required, these are the way in that does not go through the IdP.
 */
export async function countMembersKeys(db: Db, tenant: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `select count(*)::int as count from api_keys k join users u on u.id = k.user_id and u.tenant = k.tenant
     where k.tenant = $1 and u.role <> 'owner' and k.revoked_at is null
       and (k.expires_at is null or k.expires_at > now())`,
    [tenant],
  );
  return rows[0].count;
}

/** Revokes those keys at once (every request reads its key from the database); answers how many. */
export async function revokeMembersKeys(db: Db, tenant: string): Promise<number> {
  const { rows } = await db.query(
    `update api_keys k set revoked_at = now() from users u
     where k.tenant = $1 and u.id = k.user_id and u.tenant = k.tenant and u.role <> 'owner'
       and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
     returning k.id`,
    [tenant],
  );
  return rows.length;
}

/** Whom a presented key speaks for, and whether it may be used now. */
export interface KeyHolder {
  keyId: string;
  userId: string;
  tenant: string;
  /** The member is suspended. */
  suspended: boolean;
  /** The organization turned its API off (`apiAccess`), or was disabled. */
  apiAccess: boolean;
  disabled: boolean;
}

/**
 * The holder of `key`, read from the database on every request (so a revocation, a suspension or an
 * organization's switch holds at once on every node); null for an unknown, revoked or expired key.
 * The same statement marks the key used, at most once a minute.
 */
export async function keyHolder(db: Db, key: string): Promise<KeyHolder | null> {
  if (!key.startsWith(keyPrefix) || key.length > 200) return null;
  const { rows } = await db.query<{
    id: string;
    user_id: string;
    tenant: string;
    suspended: boolean;
    api_access: boolean;
    disabled: boolean;
  }>(
    `with found as (
       select k.id, k.user_id, k.tenant, u.status = 'suspended' as suspended, o.api_access, o.disabled,
              k.last_used_at
       from api_keys k join users u on u.id = k.user_id and u.tenant = k.tenant
         join organizations o on o.subdomain = k.tenant
       where k.key_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())),
     touched as (
       update api_keys k set last_used_at = now() from found
       where k.id = found.id and (found.last_used_at is null or found.last_used_at < now() - interval '1 minute'))
     select id, user_id, tenant, suspended, api_access, disabled from found`,
    [hashKey(key)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    keyId: row.id,
    userId: row.user_id,
    tenant: row.tenant,
    suspended: row.suspended,
    apiAccess: row.api_access,
    disabled: row.disabled,
  };
}

/**
 * Reserves `price` for a completion of `botId` through `keyId` exactly as a chat reply does (balance,
 * and the groups' monthly budget, in one UPDATE of the member's row): answers the call's id, or throws
 * the chat's 402 (INSUFFICIENT_BALANCE or BUDGET_REACHED).
 */
export async function reserveCall(
  db: Db,
  owner: Owner,
  call: { keyId: string; botId: string; modelId: string | null; price: number },
): Promise<string> {
  const { rows } = await db.query<{ id: string | null }>(
    `with hold as (${hold}),
     started as (
       insert into api_calls (id, tenant, user_id, key_id, bot_id, model_id, status, reserved, lease_until)
       select $1, $3, $2, $5, $6, $7, 'streaming', $4, ${lease} from hold returning id)
     select (select id from started) as id`,
    [randomUUID(), owner.userId, owner.tenant, call.price, call.keyId, call.botId, call.modelId],
  );
  if (!rows[0]?.id) throw await refusal(db, owner, call.price);
  return rows[0].id;
}

/** Renews the call's lease while it runs; false when it was ended elsewhere (cut off). */
export async function renewCall(db: Db, callId: string): Promise<boolean> {
  const { rows } = await db.query(
    `update api_calls set lease_until = ${lease} where id = $1 and status = 'streaming' returning id`,
    [callId],
  );
  return rows.length > 0;
}

/**
 * The completion is done: its reservation becomes a charge, as a chat reply's (`billing/reservations`
 * `settle`: by its tokens on a token-priced model), with its token counts; null when the call had
 * already been ended (cut off).
 */
export const settleCall = (
  db: Db,
  owner: Owner,
  call: { callId: string; description: string; free: boolean; usage: ReplyUsage; pricing: Pricing | null },
) =>
  settleReservation(db, owner, callReservations, {
    id: call.callId,
    description: call.description,
    free: call.free,
    set: { prompt_tokens: call.usage.promptTokens, completion_tokens: call.usage.completionTokens },
    tokens: { pricing: call.pricing, usage: call.usage },
  });

/** The call ended without completing (the client left, the bot failed): its reservation is given back. */
export const releaseCall = (db: Db, owner: Owner, call: { callId: string; status: 'stopped' | 'failed' }) =>
  releaseReservation(db, owner, callReservations, { id: call.callId, status: call.status, set: {} });

/** Calls whose node is gone, marked interrupted (`billing/reservations` `releaseOrphans`). */
export const interruptCalls = (db: Db, all = false, mine: string[] = []) =>
  releaseOrphans(db, callReservations, all, mine);

/** How often a running call renews its lease: well within `leaseSeconds`. */
export const renewMs = (leaseSeconds * 1000) / 3;
/** How often a node looks for calls whose node is gone. */
export const leaseCheckMs = (leaseSeconds * 1000) / 2;

/**
 * Stores a completed call as a conversation of the member (`store: true`): a topic of the bot with
 * the request's turns and the answer as one branch, the answer its head, its messages marked as the
 * call's (the usage report counts the call, not them twice). Answers the topic's id.
 */
export async function storeConversation(
  db: Db,
  owner: Owner,
  conversation: {
    callId: string;
    botId: string;
    turns: { role: 'user' | 'bot'; text: string }[];
    answer: string;
    cost: number;
  },
): Promise<string> {
  return db.transaction(async (tx) => {
    const firstUser = conversation.turns.find((turn) => turn.role === 'user')?.text ?? '';
    const { rows } = await tx.query<{ id: string }>(
      'insert into topics (tenant, user_id, bot_id, title) values ($1, $2, $3, $4) returning id',
      [owner.tenant, owner.userId, conversation.botId, firstUser.replace(/\s+/g, ' ').trim().slice(0, 80)],
    );
    const topicId = rows[0].id;
    let parent: string | null = null;
    const all = [
      ...conversation.turns.map((turn) => ({ ...turn, cost: null as number | null })),
      { role: 'bot' as const, text: conversation.answer, cost: conversation.cost },
    ];
    for (const turn of all) {
      const inserted: { rows: { id: string }[] } = await tx.query<{ id: string }>(
        `insert into messages (topic_id, parent, role, text, status, cost, api_call_id)
         values ($1, $2, $3, $4, 'complete', $5, $6) returning id`,
        [topicId, parent, turn.role, turn.text, turn.cost, conversation.callId],
      );
      parent = inserted.rows[0].id;
    }
    await tx.query('update topics set head = $2 where id = $1', [topicId, parent]);
    await tx.query('update api_calls set topic_id = $2 where id = $1', [conversation.callId, topicId]);
    return topicId;
  });
}
