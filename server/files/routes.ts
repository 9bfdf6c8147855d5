import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { idParams, successResponse } from '../schemas';
import { thumbnailType } from './images';
import { isImage } from './kinds';
import { deleteFile, readContent, readFile, saveFile } from './store';

const fileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'name', 'type', 'size', 'status', 'createdAt'],
  properties: {
    _id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', description: 'sniffed from the bytes' },
    size: { type: 'integer', description: 'bytes stored (an image without its metadata)' },
    pages: { type: 'integer', description: 'a PDF’s pages' },
    status: { type: 'string', enum: ['ready'] },
    createdAt: { type: 'string' },
  },
} as const;

/** Content-Disposition with the name in ASCII for old clients and in UTF-8 (RFC 6266) for the others. */
function disposition(kind: 'inline' | 'attachment', name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const servedType = (type: string) =>
  type === 'text/plain' || type === 'application/json' ? `${type}; charset=utf-8` : type;

/**
 * Files: upload (multipart, field `file`), metadata, content, delete; the owner's only, in the
 * request's organization (anyone else's is 404). The type is sniffed from the bytes; documents are
 * read in processes of their own under limits, images re-encoded without their metadata.
 */
export const filesPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  await app.uploads.register(app);
  const owner = (request: FastifyRequest) => ({ tenant: request.auth.tenant, userId: request.auth.userId });

  app.addHook('preHandler', app.authenticate);

  app.post(
    '/api/v1/file',
    { schema: { consumes: ['multipart/form-data'], response: { 201: fileSchema } } },
    async (request, reply) => {
      const who = owner(request);
      const file = await app.uploads.receive(request, who.tenant, (upload) => saveFile(app.db, who, upload));
      return reply.code(201).send(file);
    },
  );

  app.get(
    '/api/v1/file/:id',
    { schema: { params: idParams, response: { 200: fileSchema } } },
    async (request) => readFile(app.db, owner(request), request.params.id),
  );

  app.get(
    '/api/v1/file/:id/content',
    {
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { thumbnail: { type: 'string', enum: ['1', '0', 'true', 'false'] } },
        },
      },
    },
    async (request, reply) => {
      const thumbnail = request.query.thumbnail === '1' || request.query.thumbnail === 'true';
      const content = await readContent(app.db, owner(request), request.params.id, thumbnail);
      if (!content.bytes)
        throw new ApiError(404, 'This file has no thumbnail: only images have one.', 'NO_THUMBNAIL');
      const type = thumbnail ? thumbnailType : content.type;
      // Only raster images are shown in place; anything else is a download, never a page of ours.
      return reply
        .type(servedType(type))
        .header('content-disposition', disposition(isImage(type) ? 'inline' : 'attachment', content.name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('cache-control', 'private, no-cache')
        .send(content.bytes);
    },
  );

  app.delete(
    '/api/v1/file/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      await deleteFile(app.db, owner(request), request.params.id);
      return { success: true };
    },
  );
};
