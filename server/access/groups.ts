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

/** SQL: whether the member `user` (an SQL expression) may use the bot `bot` (an SQL expression). */
export const mayUseBot = (bot: string, user: string) =>
  `(not exists (select 1 from bot_groups bg where bg.bot_id = ${bot})
    or exists (select 1 from bot_groups bg join group_members gm on gm.group_id = bg.group_id
               where bg.bot_id = ${bot} and gm.user_id = ${user}))`;

/**
 * SQL: whether the member `user` may use the knowledge base `base` (an SQL alias of knowledge_bases)
 * in a project of theirs: a bot of its organization they may use searches it. Admins bind bases to
 * bots, and limit bots to groups: a base is for whoever may ask a bot that searches it, no one else.
 */
export const mayUseBase = (base: string, user: string) =>
  `exists (select 1 from bots kb where kb.tenant = ${base}.tenant
             and kb.config->'knowledge' @> jsonb_build_array(${base}.id) and ${mayUseBot('kb.id', user)})`;

export const botNotForYou = (botName: string) =>
  new ApiError(
    403,
    `${botName} is only for some groups of this organization, and you are in none of them. Ask an administrator if you need it.`,
    'BOT_NOT_ALLOWED',
  );

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
