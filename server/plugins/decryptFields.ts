import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors';

/** Seed-spec §3: fields the web app encrypts with the server's public key. */
export const sensitiveFields = [
  'password',
  'newPassword',
  'name',
  'address',
  'postalCode',
  'city',
  'country',
  'email',
  'taxNo',
];

/**
 * Decrypts the sensitive fields of JSON bodies before validation. Any failure answers exactly as
 * the route answers other bad input, so nobody can tell a padding error from a wrong value.
 */
export const decryptFieldsPlugin = fp(async (app) => {
  app.addHook('preValidation', async (request) => {
    // Multipart bodies (uploads) are never RSA-encrypted fields: left alone, and unread here.
    if (request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return;
    if (request.routeOptions.config?.plainBody) return;
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    const fields = body as Record<string, unknown>;
    for (const field of sensitiveFields) {
      const value = fields[field];
      if (value === undefined) continue;
      try {
        if (typeof value !== 'string') throw new Error('not a string');
        fields[field] = app.secrets.decrypt(value);
      } catch {
        const failure = request.routeOptions.config?.decryptFailure ?? {
          status: 400,
          error: 'The request could not be read.',
          code: 'INVALID_INPUT',
        };
        throw new ApiError(failure.status, failure.error, failure.code);
      }
    }
  });
}) as FastifyPluginAsync;
