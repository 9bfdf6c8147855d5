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
