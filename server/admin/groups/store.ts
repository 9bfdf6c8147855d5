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

export interface GroupSettings {
  name: string;
  monthlyBudget: number | null;
  idpGroups: string[];
}

/** Adds a group; answers its id (a taken name is the unique violation it throws). */
export async function insertGroup(db: Db, tenant: string, group: GroupSettings): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'insert into groups (tenant, name, monthly_budget, idp_groups) values ($1, $2, $3, $4) returning id',
    [tenant, group.name, group.monthlyBudget, group.idpGroups],
  );
  return rows[0].id;
}

export async function updateGroup(db: Db, tenant: string, id: string, group: GroupSettings) {
  await db.query(
    'update groups set name = $3, monthly_budget = $4, idp_groups = $5 where id = $1 and tenant = $2',
    [id, tenant, group.name, group.monthlyBudget, group.idpGroups],
  );
}

/** The names of the bots limited to this group alone: without it they would be open to everyone. */
export async function botsOnlyFor(db: Db, tenant: string, groupId: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select b.name from bot_groups bg join bots b on b.id = bg.bot_id
       where bg.group_id = $1 and b.tenant = $2
         and not exists (select 1 from bot_groups other where other.bot_id = bg.bot_id and other.group_id <> $1)
       order by b.position, b.name`,
    [groupId, tenant],
  );
  return rows.map((row) => row.name);
}

export async function deleteGroup(db: Db, tenant: string, id: string) {
  await db.query('delete from groups where id = $1 and tenant = $2', [id, tenant]);
}

/** Makes these (checked) members the group's members, and no one else. */
export async function setGroupMembers(db: Db, groupId: string, members: string[]) {
  await db.query('delete from group_members where group_id = $1 and not (user_id = any($2::text[]))', [
    groupId,
    members,
  ]);
  if (members.length)
    await db.query(
      'insert into group_members (group_id, user_id) select $1, unnest($2::text[]) on conflict do nothing',
      [groupId, members],
    );
}
