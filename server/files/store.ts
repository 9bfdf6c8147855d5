import { mayReadProject } from '../access/projects';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';

// Bytes go to and come from the database as base64 text, decoded and encoded by the database itself:
// PGlite's own bytea parameters and results are an order of magnitude slower (20 MB: 6 s against 0.4 s).

export const fileNotFound = () => new ApiError(404, 'This file does not exist.', 'NOT_FOUND');
export const quotaExceeded = (quotaMb: number) =>
  new ApiError(
    413,
    `Your organization's storage for files (${quotaMb} MB) is full. Delete files you no longer need, or ask an admin for more.`,
    'QUOTA_EXCEEDED',
  );

/** A blob read for the first time, to be stored. */
export interface NewBlob {
  type: string;
  bytes: Buffer;
  thumbnail?: Buffer;
  text?: string;
  pages?: number;
  pageStarts?: number[];
}

interface FileRow {
  id: string;
  name: string;
  type: string;
  size: string;
  pages: number | null;
  created_at: Date;
}

const fileRecord = (row: FileRow) => ({
  _id: row.id,
  name: row.name,
  type: row.type,
  size: Number(row.size),
  ...(row.pages === null ? {} : { pages: row.pages }),
  status: 'ready' as const,
  createdAt: new Date(row.created_at).toISOString(),
});
export type FileRecord = ReturnType<typeof fileRecord>;

const fileColumns = 'f.id, f.name, b.type, b.size, b.pages, f.created_at';
const ownFiles = `files f join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
  where f.tenant = $1 and f.user_id = $2`;
// To read, also a file of a project the user may read (its owner shared it through a group).
const readableFiles = `files f join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
  where f.tenant = $1 and (f.user_id = $2 or exists (
    select 1 from project_files pf join projects p on p.id = pf.project_id
    where pf.file_id = f.id and ${mayReadProject('p', '$2')}))`;

/** What the organization's files take, in bytes (each blob once). */
export async function storageBytes(db: Db, tenant: string): Promise<number> {
  const { rows } = await db.query<{ used: string }>(
    'select coalesce(sum(size), 0) as used from file_blobs where tenant = $1',
    [tenant],
  );
  return Number(rows[0].used);
}

export async function storageQuotaMb(db: Db, tenant: string): Promise<number> {
  const { rows } = await db.query<{ quota: number }>(
    'select storage_quota_mb as quota from organizations where subdomain = $1',
    [tenant],
  );
  return rows[0]?.quota ?? 0;
}

/** Refused when `adding` bytes more would go past the organization's quota. */
export async function checkQuota(db: Db, tenant: string, adding: number) {
  const [used, quota] = await Promise.all([storageBytes(db, tenant), storageQuotaMb(db, tenant)]);
  if (used + adding > quota * 1024 * 1024) throw quotaExceeded(quota);
}

/** Whether the organization holds these bytes already: then they need not be read again. */
export async function blobExists(db: Db, tenant: string, sha256: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from file_blobs where tenant = $1 and sha256 = $2', [
    tenant,
    sha256,
  ]);
  return rows.length > 0;
}

/** A blob another upload was using went while this one was stored: the caller reads the bytes again. */
export class BlobGone extends Error {}

/**
 * Stores a file: its blob when new (within the quota, checked under a lock of the organization so
 * uploads at once cannot overshoot it together), then the rows `addFile` writes, in one transaction.
 */
export async function storeFile<T>(
  db: Db,
  tenant: string,
  file: { sha256: string; blob: NewBlob | null },
  addFile: (tx: Db) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      const { blob } = file;
      if (blob) {
        await tx.query("select pg_advisory_xact_lock(hashtext('parley_files:' || $1))", [tenant]);
        if (!(await blobExists(tx, tenant, file.sha256))) {
          await checkQuota(tx, tenant, blob.bytes.length);
          await tx.query(
            `insert into file_blobs (tenant, sha256, type, bytes, size, thumbnail, text, pages, page_starts)
             values ($1, $2, $3, decode($4, 'base64'), $5, decode($6, 'base64'), $7, $8, $9)
             on conflict (tenant, sha256) do nothing`,
            [
              tenant,
              file.sha256,
              blob.type,
              blob.bytes.toString('base64'),
              blob.bytes.length,
              blob.thumbnail?.toString('base64') ?? null,
              blob.text ?? null,
              blob.pages ?? null,
              blob.pageStarts ?? null,
            ],
          );
        }
      }
      return await addFile(tx);
    });
  } catch (error) {
    // 23503: the blob this file was to share was deleted in the meantime.
    if ((error as { code?: string }).code === '23503') throw new BlobGone();
    throw error;
  }
}

/** Stores a file of the owner: its blob when new and its name. */
export function saveFile(
  db: Db,
  owner: Owner,
  file: { name: string; sha256: string; blob: NewBlob | null },
): Promise<FileRecord> {
  return storeFile(db, owner.tenant, file, (tx) => addOwnFile(tx, owner, file));
}

/** The owner's row of a file whose blob is stored. */
async function addOwnFile(tx: Db, owner: Owner, file: { name: string; sha256: string }) {
  const { rows } = await tx.query<{ id: string }>(
    'insert into files (tenant, user_id, sha256, name) values ($1, $2, $3, $4) returning id',
    [owner.tenant, owner.userId, file.sha256, file.name],
  );
  return readFile(tx, owner, rows[0].id);
}

/**
 * Stores a file a reply made (a generated image) as the owner's, carried by the reply `messageId`
 * after the files it carries already, like a user's attachments; `then` runs in the same transaction
 * (its charge): when it throws, nothing is stored.
 */
export function saveReplyFile<T>(
  db: Db,
  owner: Owner,
  messageId: string,
  file: { name: string; sha256: string; blob: NewBlob | null },
  then: (tx: Db, record: FileRecord) => Promise<T>,
): Promise<{ file: FileRecord; also: T }> {
  return storeFile(db, owner.tenant, file, async (tx) => {
    const record = await addOwnFile(tx, owner, file);
    await tx.query(
      `insert into message_files (message_id, position, file_id, name, type, size)
       select $1, coalesce((select max(position) + 1 from message_files where message_id = $1), 0), $2, $3, $4, $5`,
      [messageId, record._id, record.name, record.type, record.size],
    );
    return { file: record, also: await then(tx, record) };
  });
}

/**
 * The owner's file (or one of a project they may read), or 404: another user's or organization's file
 * is not found either.
 */
export async function readFile(db: Db, owner: Owner, id: string): Promise<FileRecord> {
  const { rows } = await db.query<FileRow>(`select ${fileColumns} from ${readableFiles} and f.id = $3`, [
    owner.tenant,
    owner.userId,
    id,
  ]);
  if (!rows[0]) throw fileNotFound();
  return fileRecord(rows[0]);
}

/** The owner's files, oldest first. */
export async function listFiles(db: Db, owner: Owner): Promise<FileRecord[]> {
  const { rows } = await db.query<FileRow>(
    `select ${fileColumns} from ${ownFiles} order by f.created_at, f.id`,
    [owner.tenant, owner.userId],
  );
  return rows.map(fileRecord);
}

/**
 * The bytes of the owner's file or of one of a project they may read (or of its thumbnail: null when
 * it has none), with its name and type.
 */
export async function readContent(db: Db, owner: Owner, id: string, thumbnail: boolean) {
  const { rows } = await db.query<{ name: string; type: string; content: string | null }>(
    `select f.name, b.type, encode(${thumbnail ? 'b.thumbnail' : 'b.bytes'}, 'base64') as content
     from ${readableFiles} and f.id = $3`,
    [owner.tenant, owner.userId, id],
  );
  if (!rows[0]) throw fileNotFound();
  const { name, type, content } = rows[0];
  return { name, type, bytes: content === null ? null : Buffer.from(content, 'base64') };
}

/** Deletes the owner's file; its blob goes with it when no other file is the same bytes. */
export async function deleteFile(db: Db, owner: Owner, id: string): Promise<void> {
  const { rows } = await db.query(
    'delete from files where id = $1 and tenant = $2 and user_id = $3 returning id',
    [id, owner.tenant, owner.userId],
  );
  if (!rows[0]) throw fileNotFound();
}

/**
 * Deletes the files the topic's messages carried, but those another of the owner's topics carries
 * too, and those of a project or of one of the owner's bots (they stay until taken out of it).
 */
export async function deleteTopicFiles(db: Db, owner: Owner, topicId: string): Promise<void> {
  await db.query(
    `delete from files f where f.tenant = $2 and f.user_id = $3 and f.id in (
       select mf.file_id from message_files mf join messages m on m.id = mf.message_id where m.topic_id = $1)
     and not exists (
       select 1 from message_files mf join messages m on m.id = mf.message_id
       where mf.file_id = f.id and m.topic_id <> $1)
     and not exists (select 1 from project_files pf where pf.file_id = f.id)
     and not exists (select 1 from bots b where b.tenant = f.tenant and b.owner_id = f.user_id
                     and b.config->'files' ? f.id)`,
    [topicId, owner.tenant, owner.userId],
  );
}

/** The owner's files for a message, in the order given; 404 naming `files` for any other. */
export async function filesToAttach(db: Db, owner: Owner, ids: string[]): Promise<FileRecord[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const { rows } = await db.query<FileRow>(
    `select ${fileColumns} from ${ownFiles} and f.id = any($3::text[])`,
    [owner.tenant, owner.userId, unique],
  );
  if (rows.length !== unique.length)
    throw new ApiError(404, 'This file does not exist.', 'NOT_FOUND', 'files');
  const byId = new Map(rows.map((row) => [row.id, fileRecord(row)]));
  return unique.map((id) => byId.get(id) as FileRecord);
}
