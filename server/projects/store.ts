import { type BotAccess, botAccess, botNotForYou, mayUseBase } from '../access/groups';
import { mayReadProject, readableProject } from '../access/projects';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { deleteTopicFiles } from '../files/store';
import type { Owner } from '../owner';

/**
 * A project as its readers see it: `bot` the default bot's id (or null), `files` the owner's files
 * searched for every message, `knowledgeBases` and `groups` ids, `owner` who may change it, `shared`
 * true when the reader is not its owner (they read it through one of its groups).
 */
export interface Project {
  _id: string;
  name: string;
  instructions: string;
  bot: string | null;
  files: { _id: string; name: string; type: string; size: number }[];
  knowledgeBases: string[];
  groups: string[];
  owner: { _id: string; name: string };
  shared: boolean;
}

/** What a project is made of; in a change, what is left out stays as it was. */
export interface ProjectInput {
  name?: string;
  instructions?: string;
  bot?: string | null;
  files?: string[];
  knowledgeBases?: string[];
  groups?: string[];
}

interface ProjectRow {
  id: string;
  name: string;
  instructions: string;
  bot_id: string | null;
  owner_id: string;
  owner_name: string;
  files: { _id: string; name: string; type: string; size: number }[];
  bases: string[];
  groups: string[];
}

const projectQuery = `select p.id, p.name, p.instructions, p.bot_id, p.owner_id, u.display_name as owner_name,
    coalesce((select json_agg(json_build_object('_id', f.id, 'name', f.name, 'type', b.type, 'size', b.size)
                                order by pf.position)
              from project_files pf join files f on f.id = pf.file_id
              join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256 where pf.project_id = p.id), '[]') as files,
    coalesce((select json_agg(pk.base_id order by pk.base_id) from project_knowledge pk
              where pk.project_id = p.id), '[]') as bases,
    coalesce((select json_agg(pg.group_id order by pg.group_id) from project_groups pg
              where pg.project_id = p.id), '[]') as groups
  from projects p join users u on u.id = p.owner_id
  where p.tenant = $1 and ${mayReadProject('p', '$2')}`;

const toProject =
  (reader: string) =>
  (row: ProjectRow): Project => ({
    _id: row.id,
    name: row.name,
    instructions: row.instructions,
    bot: row.bot_id,
    files: row.files,
    knowledgeBases: row.bases,
    groups: row.groups,
    owner: { _id: row.owner_id, name: row.owner_name },
    shared: row.owner_id !== reader,
  });

/** The member's own projects and those shared with a group they are in, by name. */
export async function listProjects(db: Db, who: Owner): Promise<Project[]> {
  const { rows } = await db.query<ProjectRow>(`${projectQuery} order by lower(p.name), p.id`, [
    who.tenant,
    who.userId,
  ]);
  return rows.map(toProject(who.userId));
}

/** A project the member may read, or 404 as if it did not exist. */
export async function readProject(db: Db, who: Owner, id: string): Promise<Project> {
  await readableProject(db, who, id);
  const { rows } = await db.query<ProjectRow>(`${projectQuery} and p.id = $3`, [who.tenant, who.userId, id]);
  return toProject(who.userId)(rows[0]);
}

/** A project of the member's own, to change or delete: 403 for a reader who is not its owner, else 404. */
async function ownedProject(db: Db, who: Owner, id: string) {
  const project = await readableProject(db, who, id);
  if (project.ownerId !== who.userId)
    throw new ApiError(403, 'Only the owner of this project can change or delete it.', 'NOT_OWNER');
  return project;
}

const unique = (ids: string[]) => [...new Set(ids)];
const missing = (field: string, what: string) =>
  new ApiError(404, `${what} does not exist or is not yours to use.`, 'NOT_FOUND', field);

/** Refuses what the owner may not put in a project: each check names its field. */
async function checkInput(tx: Db, who: Owner, input: ProjectInput) {
  if (input.bot) {
    const { rows } = await tx.query<BotAccess & { name: string }>(
      `select b.name, ${botAccess('b', '$3')} from bots b where b.id = $1 and b.tenant = $2`,
      [input.bot, who.tenant, who.userId],
    );
    if (!rows[0] || rows[0].hidden)
      throw new ApiError(404, 'This bot does not exist.', 'BOT_NOT_FOUND', 'bot');
    if (!rows[0].may_use) {
      const refused = botNotForYou(rows[0]);
      throw new ApiError(refused.statusCode, refused.message, refused.code, 'bot');
    }
  }
  // How many of `ids` the query finds (its parameters: `before`, then the ids).
  const found = async (sql: string, ids: string[], before: string[] = [who.tenant, who.userId]) =>
    (await tx.query(sql, [...before, ids])).rows.length;
  const { files, knowledgeBases, groups } = input;
  if (
    files?.length &&
    (await found(
      'select id from files where tenant = $1 and user_id = $2 and id = any($3::text[])',
      files,
    )) !== files.length
  )
    throw missing('files', 'A file');
  if (
    knowledgeBases?.length &&
    (await found(
      `select k.id from knowledge_bases k where k.tenant = $1 and k.id = any($3::text[]) and ${mayUseBase('k', '$2')}`,
      knowledgeBases,
    )) !== knowledgeBases.length
  )
    throw missing('knowledgeBases', 'A knowledge base');
  if (
    groups?.length &&
    (await found('select id from groups where tenant = $1 and id = any($2::text[])', groups, [
      who.tenant,
    ])) !== groups.length
  )
    throw missing('groups', 'A group');
}

/** Replaces the lists given of the project `id` (checked before). */
async function writeLists(tx: Db, id: string, input: ProjectInput) {
  if (input.files) {
    // Files kept stay (their passages with them); only those let go of or new change.
    await tx.query('delete from project_files where project_id = $1 and not (file_id = any($2::text[]))', [
      id,
      input.files,
    ]);
    await tx.query(
      `insert into project_files (project_id, file_id, position)
       select $1, file_id, position - 1 from unnest($2::text[]) with ordinality as given (file_id, position)
       on conflict (project_id, file_id) do update set position = excluded.position`,
      [id, input.files],
    );
  }
  if (input.knowledgeBases) {
    await tx.query('delete from project_knowledge where project_id = $1', [id]);
    await tx.query('insert into project_knowledge (project_id, base_id) select $1, unnest($2::text[])', [
      id,
      input.knowledgeBases,
    ]);
  }
  if (input.groups) {
    await tx.query('delete from project_groups where project_id = $1', [id]);
    await tx.query('insert into project_groups (project_id, group_id) select $1, unnest($2::text[])', [
      id,
      input.groups,
    ]);
  }
}

const deduplicated = (input: ProjectInput): ProjectInput => ({
  ...input,
  ...(input.files ? { files: unique(input.files) } : {}),
  ...(input.knowledgeBases ? { knowledgeBases: unique(input.knowledgeBases) } : {}),
  ...(input.groups ? { groups: unique(input.groups) } : {}),
});

/** A new project of the member's, checked and written in one transaction. */
export async function createProject(
  db: Db,
  who: Owner,
  given: ProjectInput & { name: string },
): Promise<Project> {
  const input = deduplicated(given);
  const id = await db.transaction(async (tx) => {
    await checkInput(tx, who, input);
    const { rows } = await tx.query<{ id: string }>(
      `insert into projects (tenant, owner_id, name, instructions, bot_id)
       values ($1, $2, $3, $4, $5) returning id`,
      [who.tenant, who.userId, input.name, input.instructions ?? '', input.bot ?? null],
    );
    await writeLists(tx, rows[0].id, input);
    return rows[0].id;
  });
  return readProject(db, who, id);
}

/** Changes the owner's project: what is given replaces what it had. */
export async function changeProject(db: Db, who: Owner, id: string, given: ProjectInput): Promise<Project> {
  const input = deduplicated(given);
  await db.transaction(async (tx) => {
    await ownedProject(tx, who, id);
    await checkInput(tx, who, input);
    await tx.query(
      `update projects set name = coalesce($2, name), instructions = coalesce($3, instructions),
         bot_id = case when $4 then $5 else bot_id end, updated_at = now()
       where id = $1`,
      [id, input.name ?? null, input.instructions ?? null, input.bot !== undefined, input.bot ?? null],
    );
    await writeLists(tx, id, input);
  });
  return readProject(db, who, id);
}

/**
 * Deletes the owner's project. With `delete`, the owner's conversations in it go too (with the files
 * their messages carried, as deleting a conversation does); other members' conversations are theirs,
 * and move out like every conversation with `keep` (the topics' foreign key sets their project null).
 */
export async function deleteProject(db: Db, who: Owner, id: string, conversations: 'delete' | 'keep') {
  await db.transaction(async (tx) => {
    await ownedProject(tx, who, id);
    if (conversations === 'delete') {
      const { rows } = await tx.query<{ id: string }>(
        'select id from topics where project_id = $1 and tenant = $2 and user_id = $3',
        [id, who.tenant, who.userId],
      );
      // One by one: a file two of them carried goes with the second.
      for (const topic of rows) {
        await deleteTopicFiles(tx, who, topic.id);
        await tx.query('delete from topics where id = $1', [topic.id]);
      }
    }
    await tx.query('delete from projects where id = $1', [id]);
  });
}

/** What the member may pick in a project: the organization's groups, and the bases they may use. */
export async function projectChoices(db: Db, who: Owner) {
  const [groups, bases] = await Promise.all([
    db.query<{ _id: string; name: string }>(
      'select id as "_id", name from groups where tenant = $1 order by lower(name), id',
      [who.tenant],
    ),
    db.query<{ _id: string; name: string }>(
      `select k.id as "_id", k.name from knowledge_bases k
       where k.tenant = $1 and ${mayUseBase('k', '$2')} order by lower(k.name), k.id`,
      [who.tenant, who.userId],
    ),
  ]);
  return { groups: groups.rows, knowledgeBases: bases.rows };
}

/**
 * What a project gives a reply of the member's, or null when they may not read it (any more): its
 * name and instructions, those of its knowledge bases the member may use, and how many files it has
 * (searched through the same rule: server/knowledge/retrieval.ts).
 */
export async function projectContext(
  db: Db,
  who: Owner,
  id: string,
): Promise<{ name: string; instructions: string; bases: string[]; files: number } | null> {
  const { rows } = await db.query<{ name: string; instructions: string; bases: string[]; files: number }>(
    `select p.name, p.instructions,
            (select count(*) from project_files pf where pf.project_id = p.id)::int as files,
            array(select k.id from project_knowledge pk join knowledge_bases k on k.id = pk.base_id
                  where pk.project_id = p.id and ${mayUseBase('k', '$3')} order by k.id) as bases
     from projects p where p.id = $1 and p.tenant = $2 and ${mayReadProject('p', '$3')}`,
    [id, who.tenant, who.userId],
  );
  return rows[0] ?? null;
}
