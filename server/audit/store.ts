import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database';

export interface AuditEntry {
  action: string;
  /** The `_id` acted on. */
  target: string | null;
  before: unknown;
  after: unknown;
}

/** Writes one entry of the organization's audit log; part of the caller's transaction. */
export async function audit(db: Db, request: FastifyRequest, entry: AuditEntry) {
  await recordAudit(db, {
    tenant: request.tenant,
    actor: request.auth.userId,
    ...entry,
  });
}

/** The same for callers without a request: the operator's command (actor 'operator'). */
export async function recordAudit(db: Db, entry: AuditEntry & { tenant: string; actor: string }) {
  await db.query(
    `insert into audit_log (tenant, actor, actor_name, action, target, before, after)
     values ($1, $2, coalesce((select display_name from users where id = $2 and tenant = $1), $2), $3, $4, $5, $6)`,
    [
      entry.tenant,
      entry.actor,
      entry.action,
      entry.target,
      entry.before === undefined || entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === undefined || entry.after === null ? null : JSON.stringify(entry.after),
    ],
  );
}

interface AuditRow {
  id: string;
  /** The entry's place in the log (its seq), the next page's cursor. */
  position: string;
  at: Date;
  actor: string;
  actor_name: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The record ids an entry names: its target, and any id among its values before and after. */
function idsOf(row: AuditRow): Set<string> {
  const ids = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (uuid.test(value)) ids.add(value);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  [row.target, row.before, row.after].forEach(walk);
  return ids;
}

/** How an entry names its record: by its name, or an invitation by its address. */
const loggedName = `coalesce(after->>'name', before->>'name', after->>'email', before->>'email')`;

/**
 * The names of the organization's records with these ids, by id: bots, categories, members, groups,
 * providers, catalogue models, knowledge bases and their documents, MCP servers, invitations (by address) and the
 * organization itself. A record since deleted is named as the log last recorded it (the `name` or
 * `email` of an entry about it).
 */

async function namesOf(db: Db, tenant: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; name: string }>(
    `select id, name from bots where tenant = $1 and id = any($2::text[])
     union all select id, name from categories where tenant = $1 and id = any($2::text[])
     union all select id, display_name from users where tenant = $1 and id = any($2::text[])
     union all select id, name from groups where tenant = $1 and id = any($2::text[])
     union all select id, name from providers where tenant = $1 and id = any($2::text[])
     union all select id, name from models where tenant = $1 and id = any($2::text[])
     union all select id, name from knowledge_bases where tenant = $1 and id = any($2::text[])
     union all select id, name from files where tenant = $1 and base_id is not null and id = any($2::text[])
     union all select id, name from mcp_servers where tenant = $1 and id = any($2::text[])
     union all select id, email from invitations where tenant = $1 and id = any($2::text[])
     union all select id, name from organizations where subdomain = $1 and id = any($2::text[])`,
    [tenant, ids],
  );
  const names = new Map(rows.map((row) => [row.id, row.name]));
  const gone = ids.filter((id) => !names.has(id));
  if (gone.length > 0) {
    const { rows: logged } = await db.query<{ id: string; name: string }>(
      `select distinct on (target) target as id, ${loggedName} as name
       from audit_log
       where tenant = $1 and target = any($2::text[]) and ${loggedName} is not null
       order by target, seq desc`,
      [tenant, gone],
    );
    for (const row of logged) names.set(row.id, row.name);
  }
  return names;
}

/**
 * A page of the organization's audit log, newest first: `{ items, next }` (next: the cursor, or null).
 * Each entry carries `names`: the name of each record id it holds (its target, the categories of a
 * bot, the members of a group…), so the log reads without ids.
 */
export async function readAuditPage(db: Db, tenant: string, cursor: string | null, limit: number) {
  const { rows } = await db.query<AuditRow>(
    `select id, seq::text as position, at, actor, actor_name, action, target, before, after from audit_log
     where tenant = $1 and ($2::bigint is null or seq < $2::bigint)
     order by audit_log.seq desc limit $3`,
    [tenant, cursor, limit + 1],
  );
  const page = rows.slice(0, limit);
  const ids = page.map(idsOf);
  const names = await namesOf(db, tenant, [...new Set(ids.flatMap((set) => [...set]))]);
  return {
    items: page.map((row, index) => ({
      _id: row.id,
      at: new Date(row.at).toISOString(),
      actor: row.actor,
      actorName: row.actor_name,
      action: row.action,
      target: row.target,
      before: row.before,
      after: row.after,
      names: Object.fromEntries(
        [...ids[index]].flatMap((id) => {
          const name = names.get(id);
          return name === undefined ? [] : [[id, name]];
        }),
      ),
    })),
    next: rows.length > limit ? (page.at(-1)?.position ?? null) : null,
  };
}
