import type { Db } from '../../db/database';
import { ApiError } from '../../errors';

/** A member of a group, as the admin area names them. */
export interface GroupMember {
  _id: string;
  displayName: string;
  username: string;
}

/** A group as the admin area shows it. */
export interface Group {
  _id: string;
  name: string;
  /** Per member and calendar month (UTC), in the organization's currency; null: no limit. */
  monthlyBudget: number | null;
  /** Names of the identity provider's groups whose members belong here (at each SSO login). */
  idpGroups: string[];
  /** Its members, by name. */
  members: GroupMember[];
  /** The bots limited to it (and maybe other groups): their ids. */
  bots: string[];
}

interface GroupRow {
  id: string;
  name: string;
  monthly_budget: string | null;
  idp_groups: string[];
  members: GroupMember[];
  bots: string[];
}

const toGroup = (row: GroupRow): Group => ({
  _id: row.id,
  name: row.name,
  monthlyBudget: row.monthly_budget === null ? null : Number(row.monthly_budget),
  idpGroups: row.idp_groups,
  members: row.members,
  bots: row.bots,
});

const groupQuery = `select g.id, g.name, g.monthly_budget, g.idp_groups,
    (select coalesce(json_agg(json_build_object('_id', u.id, 'displayName', u.display_name, 'username', u.username)
              order by lower(u.display_name), u.id), '[]')
     from group_members gm join users u on u.id = gm.user_id where gm.group_id = g.id) as members,
    array(select bg.bot_id from bot_groups bg join bots b on b.id = bg.bot_id
          where bg.group_id = g.id order by b.position, b.name) as bots
  from groups g`;

export const groupNotFound = (field?: string) => new ApiError(404, 'Group not found', 'NOT_FOUND', field);

export async function listGroups(db: Db, tenant: string): Promise<Group[]> {
  const { rows } = await db.query<GroupRow>(
    `${groupQuery} where g.tenant = $1 order by lower(g.name), g.id`,
    [tenant],
  );
  return rows.map(toGroup);
}

/** The organization's group; 404 for anyone else's or none. */
export async function readGroup(db: Db, tenant: string, id: string): Promise<Group> {
  const { rows } = await db.query<GroupRow>(`${groupQuery} where g.tenant = $1 and g.id = $2`, [tenant, id]);
  if (!rows[0]) throw groupNotFound();
  return toGroup(rows[0]);
}

/** The groups' ids when all are the organization's (duplicates dropped); 404 naming `field` otherwise. */
export async function checkGroups(
  db: Db,
  tenant: string,
  ids: string[],
  field = 'groups',
): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const { rows } = await db.query<{ id: string }>(
    'select id from groups where tenant = $1 and id = any($2::text[])',
    [tenant, unique],
  );
  if (rows.length !== unique.length) throw groupNotFound(field);
  return unique;
}

/** The members' ids when all are members of the organization (duplicates dropped); 404 otherwise. */
export async function checkMembers(db: Db, tenant: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const { rows } = await db.query<{ id: string }>(
    'select id from users where tenant = $1 and id = any($2::text[])',
    [tenant, unique],
  );
  if (rows.length !== unique.length) throw new ApiError(404, 'Member not found', 'NOT_FOUND', 'members');
  return unique;
}

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

/** The groups a bot is limited to (ids); empty: everyone may use it. */
export async function groupsOfBot(db: Db, botId: string): Promise<string[]> {
  const { rows } = await db.query<{ group_id: string }>(
    'select group_id from bot_groups where bot_id = $1 order by group_id',
    [botId],
  );
  return rows.map((row) => row.group_id);
}

/** SQL: whether the member `user` (an SQL expression) may use the bot `bot` (an SQL expression). */
export const mayUseBot = (bot: string, user: string) =>
  `(not exists (select 1 from bot_groups bg where bg.bot_id = ${bot})
    or exists (select 1 from bot_groups bg join group_members gm on gm.group_id = bg.group_id
               where bg.bot_id = ${bot} and gm.user_id = ${user}))`;

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
