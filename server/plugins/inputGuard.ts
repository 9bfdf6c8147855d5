import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors';

/** True when any string inside the value holds a NUL character. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  return Object.values(value).some((item) => hasNul(item, depth + 1));
}

/** PostgreSQL text cannot hold NUL: such input is refused as bad input, before it reaches a query. */
export const inputGuardPlugin = fp(async (app) => {
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) {
      throw new ApiError(400, 'The request contains characters that are not allowed.', 'INVALID_INPUT');
    }
  });
}) as FastifyPluginAsync;
