import { mayReadProject } from '../access/projects';
import type { Db } from '../db/database';
import type { Owner } from '../owner';
import { uniqueViolation } from '../schemas';

/** A memory as the member lists it. */
export interface Memory {
  _id: string;
  text: string;
  /** The project it belongs to (used only there), or null: used everywhere. */
  project: string | null;
  createdAt: string;
  source: 'member' | 'model';
}

/** The most memories one member keeps (every project together): past it, nothing more is saved. */
export const maxMemories = 200;

interface Row {
  id: string;
  text: string;
  project_id: string | null;
  created_at: Date;
  source: 'member' | 'model';
}

const columns = 'id, text, project_id, created_at, source';
const toMemory = (row: Row): Memory => ({
  _id: row.id,
  text: row.text,
  project: row.project_id,
  createdAt: new Date(row.created_at).toISOString(),
  source: row.source,
});

/** The member's custom instructions and their "Use memory" switch. */
export interface Personalization {
  text: string;
  useMemory: boolean;
}

export async function readPersonalization(db: Db, owner: Owner): Promise<Personalization> {
  const { rows } = await db.query<{ instructions: string; use_memory: boolean }>(
    'select instructions, use_memory from users where id = $1 and tenant = $2',
    [owner.userId, owner.tenant],
  );
  return { text: rows[0]?.instructions ?? '', useMemory: rows[0]?.use_memory ?? false };
}

/** Changes the instructions and the switch (null: kept). */
export async function updatePersonalization(
  db: Db,
  owner: Owner,
  change: { text: string | null; useMemory: boolean | null },
): Promise<Personalization> {
  const { rows } = await db.query<{ instructions: string; use_memory: boolean }>(
    `update users set instructions = coalesce($3, instructions), use_memory = coalesce($4, use_memory)
     where id = $1 and tenant = $2 returning instructions, use_memory`,
    [owner.userId, owner.tenant, change.text, change.useMemory],
  );
  return { text: rows[0]?.instructions ?? '', useMemory: rows[0]?.use_memory ?? false };
}

/** Who turned memory off for the member: their organization, themselves, or nobody (null). */
export async function memoryOffBy(db: Db, owner: Owner): Promise<'organization' | 'member' | null> {
  const { rows } = await db.query<{ organization: boolean; member: boolean }>(
    `select o.memory as organization, u.use_memory as member
     from users u join organizations o on o.subdomain = u.tenant where u.id = $1 and u.tenant = $2`,
    [owner.userId, owner.tenant],
  );
  if (!rows[0]?.organization) return 'organization';
  return rows[0].member ? null : 'member';
}

/** The member's memories, newest first; with `project`, only that project's. */
export async function listMemories(db: Db, owner: Owner, project?: string): Promise<Memory[]> {
  const { rows } = await db.query<Row>(
    `select ${columns} from memories where user_id = $1 and tenant = $2 and ($3::text is null or project_id = $3)
     order by created_at desc, id`,
    [owner.userId, owner.tenant, project ?? null],
  );
  return rows.map(toMemory);
}

/**
 * Saves a memory of the member's: the memory, or why not — `full` at `maxMemories`, `exists` when the
 * same text (whatever its case) is already kept in that place. One statement.
 */
export async function addMemory(
  db: Db,
  owner: Owner,
  memory: { text: string; project: string | null; source: Memory['source'] },
): Promise<Memory | 'full' | 'exists'> {
  const { rows } = await db.query<Row & { full: boolean }>(
    `with kept as (select count(*) as n from memories where user_id = $2 and tenant = $1),
     added as (
       insert into memories (tenant, user_id, project_id, text, source)
       select $1, $2, $3, $4, $5 where (select n from kept) < $6
       on conflict do nothing returning ${columns})
     select ${columns}, false as full from added
     union all
     select null, null, null, null, null, (select n from kept) >= $6 where not exists (select 1 from added)`,
    [owner.tenant, owner.userId, memory.project, memory.text, memory.source, maxMemories],
  );
  const row = rows[0];
  if (row.id) return toMemory(row);
  return row.full ? 'full' : 'exists';
}

/** Changes a memory's text (its vector goes: it is computed again); null when it is not the member's. */
export async function changeMemory(
  db: Db,
  owner: Owner,
  id: string,
  text: string,
): Promise<Memory | null | 'exists'> {
  try {
    const { rows } = await db.query<Row>(
      `update memories set text = $4, embedding = null where id = $1 and user_id = $2 and tenant = $3
       returning ${columns}`,
      [id, owner.userId, owner.tenant, text],
    );
    return rows[0] ? toMemory(rows[0]) : null;
  } catch (error) {
    if (uniqueViolation(error)) return 'exists';
    throw error;
  }
}

/** Deletes one of the member's memories; false when it is not theirs. */
export async function deleteMemory(db: Db, owner: Owner, id: string): Promise<boolean> {
  const { rows } = await db.query(
    'delete from memories where id = $1 and user_id = $2 and tenant = $3 returning id',
    [id, owner.userId, owner.tenant],
  );
  return rows.length > 0;
}

/** Forgets every memory of the member: how many. */
export async function forgetAll(db: Db, owner: Owner): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'with gone as (delete from memories where user_id = $1 and tenant = $2 returning 1) select count(*) as n from gone',
    [owner.userId, owner.tenant],
  );
  return Number(rows[0].n);
}

/** Keeps a memory's vector, unless its text changed since it was computed. */
export async function setEmbedding(db: Db, id: string, text: string, embedding: number[]) {
  await db.query('update memories set embedding = $3::real[] where id = $1 and text = $2', [
    id,
    text,
    embedding,
  ]);
}

/** A memory as a reply is given it. */
export interface Recalled {
  id: string;
  text: string;
}

/**
 * In one query, what a reply of the member is given: their custom instructions, whether memory is on
 * (their organization's and their own switch), the conversation's `project` while they may read it
 * (else null: a project they left is no longer theirs to use), how many memories apply (theirs,
 * everywhere or in that project) and, when there are no more than `all`, those memories, oldest first.
 */
export async function personalFor(
  db: Db,
  owner: Owner,
  project: string | null,
  all: number,
): Promise<{
  instructions: string;
  memoryOn: boolean;
  project: string | null;
  total: number;
  memories: Recalled[] | null;
}> {
  const { rows } = await db.query<{
    instructions: string;
    memory_on: boolean;
    project: string | null;
    total: string;
    memories: Recalled[] | null;
  }>(
    `with member as (
       select u.instructions, o.memory and u.use_memory as memory_on
       from users u join organizations o on o.subdomain = u.tenant where u.id = $1 and u.tenant = $2),
     readable as (select p.id from projects p where p.id = $3 and p.tenant = $2 and ${mayReadProject('p', '$1')}),
     applying as (
       select m.id, m.text, m.created_at from memories m
       where m.user_id = $1 and m.tenant = $2 and (m.project_id is null or m.project_id = (select id from readable))
         and (select memory_on from member)),
     counted as (select count(*) as n from applying)
     select member.instructions, member.memory_on, (select id from readable) as project, counted.n as total,
            case when counted.n <= $4 then
              (select json_agg(json_build_object('id', a.id, 'text', a.text) order by a.created_at, a.id)
               from applying a) end as memories
     from member, counted`,
    [owner.userId, owner.tenant, project, all],
  );
  const row = rows[0];
  if (!row) return { instructions: '', memoryOn: false, project: null, total: 0, memories: [] };
  return {
    instructions: row.instructions,
    memoryOn: row.memory_on,
    project: row.project,
    total: Number(row.total),
    memories: row.memories ?? (Number(row.total) > all ? null : []),
  };
}

/**
 * Every memory that applies (more than a reply is given), with its full-text rank for `query` (0:
 * no match; '' matches nothing) and whether it has a vector: what the reply's choice ranks them by.
 */
export async function memoriesToRank(
  db: Db,
  owner: Owner,
  project: string | null,
  query: string,
): Promise<(Recalled & { rank: number; vector: boolean; createdAt: Date })[]> {
  const { rows } = await db.query<Recalled & { rank: number; vector: boolean; created_at: Date }>(
    `with q as materialized (select case when $4 = '' then null else to_tsquery('simple', parley_fold($4)) end as query)
     select m.id, m.text, m.created_at, coalesce(ts_rank_cd(m.search, q.query), 0) as rank,
            m.embedding is not null as vector
     from memories m, q
     where m.user_id = $1 and m.tenant = $2 and (m.project_id is null or m.project_id = $3)`,
    [owner.userId, owner.tenant, project, query],
  );
  return rows.map(({ created_at, ...row }) => ({ ...row, createdAt: created_at }));
}

/** The vectors of the member's memories `ids` (those that have one), with the text each was computed for. */
export async function memoryVectors(
  db: Db,
  owner: Owner,
  ids: string[],
): Promise<{ id: string; text: string; embedding: number[] }[]> {
  const { rows } = await db.query<{ id: string; text: string; embedding: number[] }>(
    `select id, text, embedding from memories
     where user_id = $1 and tenant = $2 and id = any($3::text[]) and embedding is not null`,
    [owner.userId, owner.tenant, ids],
  );
  return rows;
}
