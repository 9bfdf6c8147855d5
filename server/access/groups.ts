import type { Db } from '../db/database';
import { ApiError } from '../errors';

// Who may use what: a bot limited to groups is for their members only, on every route that starts a
// reply, shows a bot or continues a share. The admin API (server/admin/groups) manages the groups.

/** IdP group names as stored: trimmed, without empty ones or repeats, in the order given. */
export function cleanIdpGroups(names: string[]): string[] {
  return [...new Set(names.map((name) => name.replace(/\p{Cc}/gu, '').trim()).filter(Boolean))];
}

/** The groups a member of `tenant` belongs to (ids). */
export async function groupsOfMember(db: Db, tenant: string, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ group_id: string }>(
    `select gm.group_id from group_members gm join groups g on g.id = gm.group_id
     where gm.user_id = $1 and g.tenant = $2`,
    [userId, tenant],
  );
  return rows.map((row) => row.group_id);
}

/**
 * SQL: whether the member `user` (an SQL expression) sees the bot `alias` (an SQL alias of bots) at
 * all: every admin bot (limited to groups or not: they learn it is not for them), their own bots, and
 * members' bots shared with the organization or with a group they are in. Another member's bot that
 * is not shared with them is, for them, a bot that does not exist (404).
 */
export const seesBot = (alias: string, user: string) =>
  `(${alias}.owner_id is null or ${alias}.owner_id = ${user} or ${alias}.visibility = 'organization'
    or ${alias}.visibility = 'groups' and exists (
      select 1 from bot_groups sg join group_members sm on sm.group_id = sg.group_id
      where sg.bot_id = ${alias}.id and sm.user_id = ${user}))`;

/**
 * SQL: whether the member `user` (an SQL expression) may use the bot `bot` (an SQL expression): the
 * one rule every route that starts a reply, lists bots or continues a share asks. An admin bot: when
 * it is limited to no group, or to one they are in. A member's bot: its owner; with visibility
 * `groups`, the members of its groups; `organization`, everyone of it (callers scope the bot to the
 * member's organization); `private`, no one else. A retired member bot, or one its maker deleted
 * while conversations named it: no one.
 */
export const mayUseBot = (bot: string, user: string) =>
  `exists (select 1 from bots ub where ub.id = ${bot} and not ub.retired and ub.deleted_at is null and case
     when ub.owner_id is null then
       not exists (select 1 from bot_groups bg where bg.bot_id = ub.id)
       or exists (select 1 from bot_groups bg join group_members gm on gm.group_id = bg.group_id
                  where bg.bot_id = ub.id and gm.user_id = ${user})
     else ${seesBot('ub', user)} end)`;

/** What `botAccess` reads. */
export interface BotAccess {
  may_use: boolean;
  retired: boolean;
  hidden: boolean;
  deleted: boolean;
}

/**
 * SQL columns for a refusal: `may_use`, `retired`, `hidden` (another member's bot not shared with
 * them) and `deleted` (by its maker).
 */
export const botAccess = (alias: string, user: string) =>
  `${mayUseBot(`${alias}.id`, user)} as may_use, ${alias}.retired, not ${seesBot(alias, user)} as hidden,
   ${alias}.deleted_at is not null as deleted`;

/**
 * SQL: whether the member `user` may use the knowledge base `base` (an SQL alias of knowledge_bases)
 * in a project of theirs: a bot of its organization they may use searches it. Admins bind bases to
 * bots, and limit bots to groups: a base is for whoever may ask a bot that searches it, no one else.
 */
export const mayUseBase = (base: string, user: string) =>
  `exists (select 1 from bots kb where kb.tenant = ${base}.tenant
             and kb.config->'knowledge' @> jsonb_build_array(${base}.id) and ${mayUseBot('kb.id', user)})`;

/**
 * Why the member may not use a bot: an administrator retired it, its maker no longer shares it with
 * them (met through a share or an old conversation), or it is for other groups.
 */
export function botNotForYou(bot: { name: string; retired?: boolean; hidden?: boolean; deleted?: boolean }) {
  if (bot.deleted)
    return new ApiError(
      403,
      `${bot.name} was deleted by the member who made it and answers no more. Start a conversation with another bot.`,
      'BOT_RETIRED',
    );
  if (bot.retired)
    return new ApiError(
      403,
      `${bot.name} was retired by an administrator and answers no more. Start a conversation with another bot.`,
      'BOT_RETIRED',
    );
  if (bot.hidden)
    return new ApiError(
      403,
      `${bot.name} is a member's own bot that is not shared with you (any more).`,
      'BOT_NOT_ALLOWED',
    );
  return new ApiError(
    403,
    `${bot.name} is only for some groups of this organization, and you are in none of them. Ask an administrator if you need it.`,
    'BOT_NOT_ALLOWED',
  );
}

/**
 * Sets a member's groups from the identity provider's group names (the SSO login calls it with the
 * groups claim): of the organization's groups mapped to IdP names, the member is in exactly those
 * that name one of `idpGroupNames`. Groups with no IdP names are managed by hand and left as they are.
 * Answers the ids of every group the member is in afterwards.
 */
export async function syncIdpGroups(
  db: Db,
  tenant: string,
  userId: string,
  idpGroupNames: string[],
): Promise<string[]> {
  const names = cleanIdpGroups(idpGroupNames);
  await db.transaction(async (tx) => {
    const { rows } = await tx.query('select 1 from users where id = $1 and tenant = $2', [userId, tenant]);
    if (!rows[0]) throw new ApiError(404, 'Member not found', 'NOT_FOUND');
    await tx.query(
      `delete from group_members gm using groups g
       where g.id = gm.group_id and gm.user_id = $2 and g.tenant = $1
         and cardinality(g.idp_groups) > 0 and not (g.idp_groups && $3::text[])`,
      [tenant, userId, names],
    );
    await tx.query(
      `insert into group_members (group_id, user_id)
       select g.id, $2 from groups g where g.tenant = $1 and g.idp_groups && $3::text[]
       on conflict do nothing`,
      [tenant, userId, names],
    );
  });
  return groupsOfMember(db, tenant, userId);
}
