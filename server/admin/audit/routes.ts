import type { FastifyPluginAsync } from 'fastify';
import { readAuditPage } from '../../audit/store';
import { objectOf } from '../../schemas';

/**
 * The organization's audit log, newest first, in pages: `{ items, next }` (next: the cursor, or null);
 * each entry's `names` gives the names of the record ids it holds.
 */
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
    (request) =>
      readAuditPage(app.db, request.tenant, request.query.cursor ?? null, Number(request.query.limit ?? 50)),
  );
};
