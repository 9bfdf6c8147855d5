import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/database';
import { splitPassages } from '../knowledge/passages';
import { guideFolder } from '../paths';

/** The knowledge base every organization starts with: a few pages on using Parley. */
export const guideName = 'Parley guide';

/**
 * Adds Parley's own guide (server/seed/guide/*.md) to the organization as a knowledge base, indexed
 * already (passages without vectors: nothing but the text search is needed offline), and answers its
 * id; null when the organization has a base of that name. The Librarian searches it from the first
 * start, so the questions it suggests have answers with no file uploaded and no model server.
 */
export async function seedGuide(db: Db, tenant: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `insert into knowledge_bases (tenant, name, description) values ($1, $2, $3)
     on conflict (tenant, name) do nothing returning id`,
    [tenant, guideName, 'How to use Parley: chats, sharing, files, languages and your account.'],
  );
  const base = rows[0]?.id;
  if (!base) return null;
  const pages = readdirSync(guideFolder).filter((file) => file.endsWith('.md'));
  for (const name of pages.sort()) {
    const text = readFileSync(join(guideFolder, name), 'utf8');
    const bytes = Buffer.from(text);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await db.query(
      `insert into file_blobs (tenant, sha256, type, bytes, size, text)
       values ($1, $2, 'text/plain', decode($3, 'base64'), $4, $5) on conflict do nothing`,
      [tenant, sha256, bytes.toString('base64'), bytes.length, text],
    );
    const { rows: file } = await db.query<{ id: string }>(
      'insert into files (tenant, base_id, sha256, name) values ($1, $2, $3, $4) returning id',
      [tenant, base, sha256, name],
    );
    await db.query(
      `insert into knowledge_documents (file_id, tenant, base_id, status) values ($1, $2, $3, 'ready')`,
      [file[0].id, tenant, base],
    );
    await db.query(
      `insert into knowledge_passages (file_id, position, tenant, base_id, text)
       select $1, p.position, $2, $3, p.text from jsonb_to_recordset($4::jsonb) as p (position integer, text text)`,
      [file[0].id, tenant, base, JSON.stringify(splitPassages(text))],
    );
  }
  return base;
}
