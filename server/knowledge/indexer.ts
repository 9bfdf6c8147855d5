import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { knowledgeChannel } from '../db/channels';
import { embedderFor } from './embeddings';
import { splitPassages } from './passages';

/** How long a node holds a job without renewing it: past this, another node (or it, restarted) takes it. */
export const indexLeaseSeconds = 10;
/** How often an idle node looks for queued jobs and expired leases, besides being woken by NOTIFY. */
const pollMs = 2000;
/** A document that ended its node's work this many times (a crash each time) fails instead. */
const maxAttempts = 3;

interface Job {
  file_id: string;
  tenant: string;
  base_id: string | null;
  attempts: number;
  claim: string;
}

/**
 * The indexing job loop of this node: claims one queued document at a time (FOR UPDATE SKIP LOCKED,
 * so nodes never take the same one), holds it under a lease it renews while it works, and stores
 * its passages together with `ready` in one transaction that only the lease's holder can commit:
 * a document is indexed once, and a node killed mid-document leaves it to be claimed again.
 */
export async function startIndexer(app: FastifyInstance) {
  let closing = false;
  let wake: (() => void) | null = null;
  const stopListening = await app.db.listen(knowledgeChannel, () => wake?.());

  async function claim(): Promise<Job | null> {
    const { rows } = await app.db.query<Job>(
      `update knowledge_documents d
       set status = 'indexing', claim = $1, attempts = d.attempts + 1,
           lease_until = now() + make_interval(secs => ${indexLeaseSeconds})
       where d.file_id = (
         select file_id from knowledge_documents
         where status = 'queued' or (status = 'indexing' and lease_until < now())
         order by created_at, file_id limit 1 for update skip locked)
       returning d.file_id, d.tenant, d.base_id, d.attempts, d.claim`,
      [randomUUID()],
    );
    return rows[0] ?? null;
  }

  /** Ends the job as `failed` with its reason, if it is still this node's. */
  const fail = (job: Job, reason: string) =>
    app.db.query(
      `update knowledge_documents set status = 'failed', error = $3, claim = null, lease_until = null
       where file_id = $1 and claim = $2`,
      [job.file_id, job.claim, reason],
    );

  async function index(job: Job) {
    if (job.attempts > maxAttempts)
      return fail(job, 'Indexing this document stopped its server repeatedly: it is not indexed.');
    const renewing = setInterval(
      () => {
        app.db
          .query(
            `update knowledge_documents set lease_until = now() + make_interval(secs => ${indexLeaseSeconds})
           where file_id = $1 and claim = $2`,
            [job.file_id, job.claim],
          )
          .catch((error) => app.log.warn({ err: error }, 'renewing an indexing lease failed'));
      },
      (indexLeaseSeconds * 1000) / 3,
    );
    try {
      const { rows } = await app.db.query<{ text: string | null; page_starts: number[] | null }>(
        `select b.text, b.page_starts from files f join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
         where f.id = $1 and f.tenant = $2`,
        [job.file_id, job.tenant],
      );
      if (!rows[0]) return; // deleted meanwhile: its job went with it
      const pieces = splitPassages(rows[0].text ?? '', rows[0].page_starts);
      if (!pieces.length)
        return fail(job, 'This document has no text to search (a scanned PDF needs text recognition first).');
      const embed = await embedderFor(app, job.tenant);
      const vectors = embed ? await embed(pieces.map((piece) => piece.text)) : null;
      await app.db.transaction(async (tx) => {
        const { rows: held } = await tx.query(
          `update knowledge_documents set status = 'ready', error = null, claim = null, lease_until = null
           where file_id = $1 and claim = $2 returning file_id`,
          [job.file_id, job.claim],
        );
        // Taken over by another node after our lease ran out: it stores the passages, not us.
        if (!held.length) return;
        await tx.query(
          `insert into knowledge_passages (file_id, position, tenant, base_id, page, text, embedding)
           select $1, p.position, $2, $3, p.page, p.text, p.embedding
           from jsonb_to_recordset($4::jsonb) as p (position integer, page integer, text text, embedding real[])`,
          [
            job.file_id,
            job.tenant,
            job.base_id,
            JSON.stringify(pieces.map((piece, at) => ({ ...piece, embedding: vectors?.[at] ?? null }))),
          ],
        );
      });
    } finally {
      clearInterval(renewing);
    }
  }

  async function run() {
    while (!closing) {
      const job = await claim().catch((error) => {
        app.log.warn({ err: error }, 'claiming an indexing job failed');
        return null;
      });
      if (job) {
        await index(job).catch((error) => {
          app.log.error({ err: error }, 'indexing a document failed');
          return fail(job, 'The document could not be indexed.').catch(() => {});
        });
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          wake = null;
          resolve();
        }, pollMs);
        wake = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
      });
    }
  }

  // The embedded database has one process: a document it was indexing when it stopped is nobody's.
  if (!app.config.databaseUrl)
    await app.db.query(
      "update knowledge_documents set status = 'queued', claim = null, lease_until = null where status = 'indexing'",
    );
  void run();
  // Not awaited: a document half done is left to its lease, like a crash, rather than holding the close.
  app.addHook('onClose', async () => {
    closing = true;
    wake?.();
    await stopListening();
  });
}
