import type { FastifyPluginAsync } from 'fastify';
import { objectOf } from '../schemas';

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

/** The organization's audit log, newest first, in pages: `{ items, next }` (next: the cursor, or null). */
export const auditAdminPlugin: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { cursor?: string; limit?: string } }>(
    '/audit',
    {
      schema: {
        querystring: objectOf({
          cursor: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' },
          limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$' },
        }),
      },
    },
    async (request) => {
      const limit = Number(request.query.limit ?? 50);
      const { rows } = await app.db.query<AuditRow>(
        `select id, seq::text as position, at, actor, actor_name, action, target, before, after from audit_log
         where tenant = $1 and ($2::bigint is null or seq < $2::bigint)
         order by audit_log.seq desc limit $3`,
        [request.tenant, request.query.cursor ?? null, limit + 1],
      );
      const page = rows.slice(0, limit);
      return {
        items: page.map((row) => ({
          _id: row.id,
          at: new Date(row.at).toISOString(),
          actor: row.actor,
          actorName: row.actor_name,
          action: row.action,
          target: row.target,
          before: row.before,
          after: row.after,
        })),
        next: rows.length > limit ? (page.at(-1)?.position ?? null) : null,
      };
    },
  );
};
