import type { FastifyInstance } from 'fastify';
import { mayReadProject } from '../access/projects';
import { isImage } from '../files/kinds';
import type { Owner } from '../owner';
import type { Citation, Knowledge, Passage } from '../providers/types';
import { embedderFor } from './embeddings';
import { splitPassages } from './passages';
import { queryTerms, searchPassages, snippetOf } from './search';

/**
 * Searches for the question: the organization's `bases` (their indexed passages), the owner's
 * `documents` (files attached to the conversation), the files of `project` (one the owner may
 * read: else none) and `botFiles`, the files a member's bot searches (only those of the member who
 * made a bot that lists them: never another member's), at most `limit` passages, numbered from 1 as the reply cites them; with `room`,
 * as many as fit in that many characters (at least the best, the last cut around its matching words).
 * A file indexed for a project is searched by its stored passages (full text and vectors); any other,
 * or one still being indexed, is split on the fly and searched by full text.
 */
export async function retrieve(
  app: FastifyInstance,
  owner: Owner,
  request: {
    question: string;
    bases: string[];
    documents: string[];
    project?: string;
    botFiles?: string[];
    limit: number;
    room?: number;
  },
): Promise<Knowledge> {
  // Three lookups at once: a question waits for the slowest, not for their sum.
  const [{ rows: bases }, { rows: documents }, embed] = await Promise.all([
    app.db.query<{ id: string }>(
      'select id from knowledge_bases where tenant = $1 and id = any($2::text[])',
      [owner.tenant, request.bases],
    ),
    app.db.query<{ id: string; name: string; text: string | null; page_starts: number[] | null }>(
      `select f.id, f.name, case when d.status is distinct from 'ready' then b.text end as text,
              b.page_starts
       from files f join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
       left join knowledge_documents d on d.file_id = f.id and d.base_id is null
       where f.tenant = $1 and b.text is not null
         and (f.user_id = $2 and f.id = any($3::text[])
              or f.id in (select pf.file_id from project_files pf join projects p on p.id = pf.project_id
                          where p.id = $4 and p.tenant = $1 and ${mayReadProject('p', '$2')})
              or f.id = any($5::text[]) and exists (
                select 1 from bots mb where mb.tenant = $1 and mb.owner_id = f.user_id and mb.config->'files' ? f.id))`,
      [owner.tenant, owner.userId, request.documents, request.project ?? null, request.botFiles ?? []],
    ),
    request.bases.length || request.project || request.botFiles?.length
      ? embedderFor(app, owner.tenant)
      : null,
  ]);
  const baseIds = bases.map((base) => base.id);
  const indexed = documents.filter((document) => document.text === null).map((document) => document.id);
  const found = await searchPassages(app.db, owner.tenant, {
    question: request.question,
    bases: baseIds,
    files: indexed,
    documents: documents.flatMap((document) =>
      document.text === null
        ? []
        : [
            {
              fileId: document.id,
              name: document.name,
              pieces: splitPassages(document.text, document.page_starts),
            },
          ],
    ),
    limit: request.limit,
    embed: baseIds.length || indexed.length ? embed : null,
  });
  const terms = queryTerms(request.question);
  const passages: Passage[] = [];
  let left = request.room ?? Number.POSITIVE_INFINITY;
  for (const passage of found) {
    if (left <= 0 && passages.length) break;
    const text =
      passage.text.length > left ? snippetOf(passage.text, terms, Math.max(left, 300)) : passage.text;
    left -= text.length;
    passages.push({
      n: passages.length + 1,
      fileId: passage.fileId,
      name: passage.name,
      ...(passage.page === undefined ? {} : { page: passage.page }),
      text,
      snippet: snippetOf(passage.text, terms),
    });
  }
  return { sources: baseIds.length + documents.length, passages };
}

/** The documents (not images) the owner's messages carried, still there, for the Librarian to search. */
export async function documentsCarried(app: FastifyInstance, owner: Owner, messageIds: string[]) {
  const { rows } = await app.db.query<{ file_id: string; type: string }>(
    `select distinct mf.file_id, mf.type from message_files mf
     join files f on f.id = mf.file_id and f.tenant = $1 and f.user_id = $2
     where mf.message_id = any($3::text[])`,
    [owner.tenant, owner.userId, messageIds],
  );
  return rows.filter((row) => !isImage(row.type)).map((row) => row.file_id);
}

export const citationOf = ({ text, ...citation }: Passage): Citation => citation;
