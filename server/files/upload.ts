import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { createExtractor } from './extract';
import { createFairQueue } from './fairQueue';
import { processImage } from './images';
import { isImage, type Refusal } from './kinds';
import { BlobGone, blobExists, checkQuota, type NewBlob } from './store';

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

/** An upload as it is stored: its name, the SHA-256 of its bytes, and the blob when the bytes are new. */
export interface Upload {
  name: string;
  sha256: string;
  blob: NewBlob | null;
}

/**
 * Receiving uploads, the one way for every route that takes files (attachments, knowledge documents):
 * multipart field `file` within UPLOAD_MAX_BYTES, the type sniffed from the bytes, documents read in
 * processes of their own under limits, images re-encoded without their metadata, the organization's
 * quota checked before reading. Reading and re-encoding take one of the node's EXTRACT_CONCURRENCY
 * slots, shared fairly between members (one queue per node, so it holds across routes).
 */
export function createUploads(app: FastifyInstance) {
  const limits = app.config.files;
  const extractor = createExtractor({ timeoutMs: limits.extractTimeoutMs, memoryMb: limits.extractMemoryMb });
  const slots = createFairQueue(limits.extractConcurrency);

  /** Reads new bytes: refused as the extraction says, or the blob to store. */
  async function read(bytes: Buffer): Promise<NewBlob> {
    const reading = await extractor.read({
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      maxPages: limits.maxPages,
      maxExpandedBytes: limits.maxExpandedBytes,
    });
    if ('status' in reading) throw refuse(reading);
    if (!isImage(reading.type)) return { ...reading, bytes };
    const image = await processImage(bytes, reading.type, {
      maxPixels: limits.maxPixels,
      maxAnimationPixels: limits.maxAnimationPixels,
      timeoutMs: limits.extractTimeoutMs,
    });
    if ('status' in image) throw refuse(image);
    return { type: reading.type, ...image };
  }

  return {
    /** Makes a plugin's routes take multipart bodies: multipart bodies never meet decryptFields. */
    register: (scope: FastifyInstance) =>
      scope.register(multipart, {
        limits: { fileSize: limits.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 100 },
      }),

    /** The request's file, checked and read, handed to `save` (which stores it in one transaction). */
    async receive<T>(
      request: FastifyRequest,
      tenant: string,
      save: (upload: Upload) => Promise<T>,
    ): Promise<T> {
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
      const name = cleanFileName(part.filename);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      // Bytes the organization holds already are not read again; if that blob goes meanwhile, once more.
      for (let attempt = 0; ; attempt += 1) {
        let blob: NewBlob | null = null;
        if (attempt > 0 || !(await blobExists(app.db, tenant, sha256))) {
          // Checked before reading too, so a full organization spends no reading.
          await checkQuota(app.db, tenant, bytes.length);
          blob = await slots.run(`${request.auth.tenant}/${request.auth.userId}`, () => read(bytes));
        }
        try {
          return await save({ name, sha256, blob });
        } catch (error) {
          if (!(error instanceof BlobGone) || attempt > 0) throw error;
        }
      }
    },
  };
}
export type Uploads = ReturnType<typeof createUploads>;
