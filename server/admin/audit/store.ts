import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';

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
