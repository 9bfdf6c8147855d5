import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { isImage } from '../files/kinds';
import { storeFile } from '../files/store';
import type { Upload } from '../files/upload';

export type DocumentStatus = 'queued' | 'indexing' | 'ready' | 'failed';

export interface KnowledgeDocument {
  _id: string;
  name: string;
  status: DocumentStatus;
  error?: string;
}
export interface KnowledgeBase {
  _id: string;
  name: string;
  description: string;
  documents: KnowledgeDocument[];
}

export const baseNotFound = () => new ApiError(404, 'Knowledge base not found', 'NOT_FOUND');
export const documentNotFound = () => new ApiError(404, 'This document does not exist.', 'NOT_FOUND');
export const baseNameTaken = () =>
  new ApiError(409, 'A knowledge base with this name exists already.', 'NAME_TAKEN', 'name');

interface BaseRow {
  id: string;
  name: string;
  description: string;
  documents: { _id: string; name: string; status: DocumentStatus; error: string | null }[];
}

const toBase = (row: BaseRow): KnowledgeBase => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  documents: row.documents.map(({ error, ...document }) => (error ? { ...document, error } : document)),
});

const baseQuery = `select k.id, k.name, k.description,
    coalesce((select json_agg(json_build_object('_id', d.file_id, 'name', f.name, 'status', d.status,
                'error', d.error) order by d.created_at, d.file_id)
              from knowledge_documents d join files f on f.id = d.file_id
              where d.base_id = k.id), '[]') as documents
  from knowledge_bases k`;

export async function listBases(db: Db, tenant: string): Promise<KnowledgeBase[]> {
  const { rows } = await db.query<BaseRow>(`${baseQuery} where k.tenant = $1 order by lower(k.name), k.id`, [
    tenant,
  ]);
  return rows.map(toBase);
}

/** The organization's base, or 404: another organization's is not found either. */
export async function readBase(db: Db, tenant: string, id: string): Promise<KnowledgeBase> {
  const { rows } = await db.query<BaseRow>(`${baseQuery} where k.tenant = $1 and k.id = $2`, [tenant, id]);
  if (!rows[0]) throw baseNotFound();
  return toBase(rows[0]);
}

/** The bases' ids when all are the organization's; 404 naming the bot field otherwise. */
export async function checkBases(db: Db, tenant: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const { rows } = await db.query(
    'select id from knowledge_bases where tenant = $1 and id = any($2::text[])',
    [tenant, unique],
  );
  if (rows.length !== unique.length)
    throw new ApiError(404, 'Knowledge base not found', 'NOT_FOUND', 'knowledge');
  return unique;
}

/**
 * Stores an uploaded document in the base, queued for indexing, with its blob when new (the files'
 * own quota and deduplication), in one transaction. The base is locked against deletion meanwhile.
 */
export function saveDocument(
  db: Db,
  tenant: string,
  baseId: string,
  upload: Upload,
): Promise<KnowledgeDocument> {
  return storeFile(db, tenant, upload, async (tx) => {
    const { rows: base } = await tx.query(
      'select id from knowledge_bases where id = $1 and tenant = $2 for key share',
      [baseId, tenant],
    );
    if (!base[0]) throw baseNotFound();
    const { rows: blob } = await tx.query<{ type: string }>(
      'select type from file_blobs where tenant = $1 and sha256 = $2',
      [tenant, upload.sha256],
    );
    if (isImage(blob[0]?.type ?? ''))
      throw new ApiError(
        415,
        'A knowledge base takes documents with text: PDF, Word (DOCX), plain text, Markdown, CSV, JSON and source code.',
        'UNSUPPORTED_TYPE',
        'file',
      );
    const { rows } = await tx.query<{ id: string }>(
      'insert into files (tenant, base_id, sha256, name) values ($1, $2, $3, $4) returning id',
      [tenant, baseId, upload.sha256, upload.name],
    );
    await tx.query('insert into knowledge_documents (file_id, tenant, base_id) values ($1, $2, $3)', [
      rows[0].id,
      tenant,
      baseId,
    ]);
    await tx.query("select pg_notify('parley_knowledge', $1)", [rows[0].id]);
    return { _id: rows[0].id, name: upload.name, status: 'queued' as const };
  });
}

/** Removes a document of the base: its passages go with it, its blob when no other file is it. */
export async function removeDocument(db: Db, tenant: string, baseId: string, fileId: string) {
  const { rows } = await db.query<{ name: string }>(
    'delete from files where id = $1 and base_id = $2 and tenant = $3 returning name',
    [fileId, baseId, tenant],
  );
  if (!rows[0]) throw documentNotFound();
  return rows[0];
}

/** Deletes the base with its documents, and takes it off the bots that read it. */
export async function deleteBase(db: Db, tenant: string, id: string) {
  await db.query(
    `update bots set config = jsonb_set(config, '{knowledge}', (config->'knowledge') - $2::text)
     where tenant = $1 and config->'knowledge' ? $2`,
    [tenant, id],
  );
  await db.query('delete from knowledge_bases where id = $1 and tenant = $2', [id, tenant]);
}

/** Adds a knowledge base; answers its id (a taken name is the unique violation it throws). */
export async function createBase(
  db: Db,
  tenant: string,
  base: { name: string; description: string },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'insert into knowledge_bases (tenant, name, description) values ($1, $2, $3) returning id',
    [tenant, base.name, base.description],
  );
  return rows[0].id;
}

export async function updateBase(
  db: Db,
  tenant: string,
  id: string,
  base: { name: string; description: string },
) {
  await db.query('update knowledge_bases set name = $3, description = $4 where id = $1 and tenant = $2', [
    id,
    tenant,
    base.name,
    base.description,
  ]);
}
