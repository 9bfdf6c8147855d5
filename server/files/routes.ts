import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { createExtractor } from './extract';
import { processImage, thumbnailType } from './images';
import { isImage, type Refusal } from './kinds';
import {
  BlobGone,
  blobExists,
  checkQuota,
  deleteFile,
  type NewBlob,
  readContent,
  readFile,
  saveFile,
} from './store';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
export const fileSchema = {
  type: 'object',
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

const refuse = (refusal: Refusal) => new ApiError(refusal.status, refusal.error, refusal.code);

/** A file name as shown and offered for download: no folders, no control or direction characters. */
export function cleanFileName(value: string | undefined): string {
  const name = (value ?? '')
    .normalize('NFC')
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '')
    .replace(/[/\\]/g, '_')
    .replace(/\s+/gu, ' ')
    .trim();
  const characters = [...name];
  const kept = characters.length > 200 ? characters.slice(-200).join('') : name;
  // Never a folder's name either, in a download or in the data export's archive.
  return kept.replace(/^\.+$/, '') || 'file';
}

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
 * read in worker threads under limits, images re-encoded without their metadata.
 */
export const filesPlugin: FastifyPluginAsync = async (app) => {
  const limits = app.config.files;
  const extractor = createExtractor({
    timeoutMs: limits.extractTimeoutMs,
    memoryMb: limits.extractMemoryMb,
    concurrency: limits.extractConcurrency,
  });
  // Here only: the other routes still take JSON alone, and multipart bodies never meet decryptFields.
  await app.register(multipart, {
    limits: { fileSize: limits.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 100 },
  });
  const owner = (request: FastifyRequest) => ({ tenant: request.auth.tenant, userId: request.auth.userId });

  app.addHook('preHandler', app.authenticate);

  /** Reads new bytes: refused as the extraction says, or the blob to store. */
  async function readUpload(bytes: Buffer): Promise<NewBlob> {
    const reading = await extractor.read({
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      maxPages: limits.maxPages,
      maxExpandedBytes: limits.maxExpandedBytes,
    });
    if ('status' in reading) throw refuse(reading);
    if (!isImage(reading.type)) return { ...reading, bytes };
    const image = await processImage(bytes, reading.type, {
      maxPixels: limits.maxPixels,
      timeoutMs: limits.extractTimeoutMs,
    });
    if ('status' in image) throw refuse(image);
    return { type: reading.type, ...image };
  }

  app.post(
    '/api/v1/file',
    { schema: { consumes: ['multipart/form-data'], response: { 201: fileSchema } } },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new ApiError(
          415,
          'Send the file as multipart/form-data, in the field "file".',
          'INVALID_MEDIA_TYPE',
          'file',
        );
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw new ApiError(400, 'Please attach a file in the field "file".', 'INVALID_INPUT', 'file');
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new ApiError(
            413,
            `The file is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB.`,
            'FILE_TOO_LARGE',
            'file',
          );
        throw error;
      }
      const who = owner(request);
      const name = cleanFileName(part.filename);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      // Bytes the organization holds already are not read again; if that blob goes meanwhile, once more.
      for (let attempt = 0; ; attempt += 1) {
        let blob: NewBlob | null = null;
        if (attempt > 0 || !(await blobExists(app.db, who.tenant, sha256))) {
          // Checked before reading too, so a full organization spends no reading.
          await checkQuota(app.db, who.tenant, bytes.length);
          blob = await readUpload(bytes);
        }
        try {
          return reply.code(201).send(await saveFile(app.db, who, { name, sha256, blob }));
        } catch (error) {
          if (!(error instanceof BlobGone) || attempt > 0) throw error;
        }
      }
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/file/:id',
    { schema: { params: idParams, response: { 200: fileSchema } } },
    async (request) => readFile(app.db, owner(request), request.params.id),
  );

  app.get<{ Params: { id: string }; Querystring: { thumbnail?: '1' | '0' | 'true' | 'false' } }>(
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

  app.delete<{ Params: { id: string } }>(
    '/api/v1/file/:id',
    {
      schema: {
        params: idParams,
        response: { 200: { type: 'object', properties: { success: { type: 'boolean' } } } },
      },
    },
    async (request) => {
      await deleteFile(app.db, owner(request), request.params.id);
      return { success: true };
    },
  );
};
