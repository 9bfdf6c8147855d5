import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors';

/** `GET /api/v1/organization/:subdomain`: the organization check's lookup (seed-spec §4). */
export const organizationsPlugin: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { subdomain: string } }>(
    '/api/v1/organization/:subdomain',
    {
      config: { anyTenant: true },
      schema: { params: { type: 'object', properties: { subdomain: { type: 'string', maxLength: 63 } } } },
    },
    async (request) => {
      const { rows } = await app.db.query<{ id: string; subdomain: string; name: string; currency: string }>(
        'select id, subdomain, name, currency from organizations where subdomain = lower($1)',
        [request.params.subdomain],
      );
      if (!rows[0]) throw new ApiError(404, 'No organization has this address.', 'UNKNOWN_ORGANIZATION');
      const { id, ...organization } = rows[0];
      return { _id: id, ...organization };
    },
  );
};
