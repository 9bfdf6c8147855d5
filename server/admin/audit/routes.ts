import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { readAuditPage } from '../../audit/store';
import { objectOf } from '../../schemas';

const entrySchema = objectOf(
  {
    _id: { type: 'string' },
    at: { type: 'string' },
    actor: { type: 'string' },
    actorName: { type: 'string' },
    action: { type: 'string' },
    target: { type: ['string', 'null'] },
    // What the record was and became: any shape its action logs (null when there is none).
    before: {},
    after: {},
    names: { type: 'object', additionalProperties: { type: 'string' } },
  },
  ['_id', 'at', 'actor', 'actorName', 'action', 'target', 'before', 'after', 'names'],
);

/**
 * The organization's audit log, newest first, in pages: `{ items, next }` (next: the cursor, or null);
 * each entry's `names` gives the names of the record ids it holds.
 */
export const auditAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get(
    '/audit',
    {
      schema: {
        querystring: objectOf({
          cursor: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' },
          limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$' },
        }),
        response: {
          200: objectOf(
            { items: { type: 'array', items: entrySchema }, next: { type: ['string', 'null'] } },
            ['items', 'next'],
          ),
        },
      },
    },
    (request) =>
      readAuditPage(app.db, request.tenant, request.query.cursor ?? null, Number(request.query.limit ?? 50)),
  );
};
