import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';

// Who may see a project: its owner, and the members of the groups it is shared with, for as long as
// they are in one (checked on every request, so leaving a group takes it away at once on every node).
// Only the owner changes or deletes it (server/projects).

/** SQL: whether the member `user` (an SQL expression) may read the project `project` (an SQL alias). */
export const mayReadProject = (project: string, user: string) =>
  `(${project}.owner_id = ${user}
    or exists (select 1 from project_groups pg join group_members gm on gm.group_id = pg.group_id
               where pg.project_id = ${project}.id and gm.user_id = ${user}))`;

export const projectNotFound = () => new ApiError(404, 'This project does not exist.', 'NOT_FOUND');

/** A write naming a project that was deleted since it was checked (23503: its foreign key) is a 404. */
export async function inReadableProject<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw projectNotFound();
    throw error;
  }
}

/** The project `id` if the member may read it (its owner id with it), or a 404 as if it did not exist. */
export async function readableProject(
  db: Db,
  who: Owner,
  id: string,
): Promise<{ id: string; ownerId: string }> {
  const { rows } = await db.query<{ id: string; owner_id: string }>(
    `select p.id, p.owner_id from projects p where p.id = $1 and p.tenant = $2 and ${mayReadProject('p', '$3')}`,
    [id, who.tenant, who.userId],
  );
  if (!rows[0]) throw projectNotFound();
  return { id: rows[0].id, ownerId: rows[0].owner_id };
}
