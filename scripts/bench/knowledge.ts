import { retrieve } from '../../server/knowledge/retrieval';
import { searchPassages } from '../../server/knowledge/search';
import { loginOwner } from '../../tests/server/admin/support';
import { createBase, filler, makePages, settled, uploadDocument } from '../../tests/server/knowledge/support';
import { startApp } from '../../tests/support/app';
import { embeddingOf, startOpenAiDouble } from '../../tests/support/openai-double';
import { loadLine, ms, percentile } from './stats';

const passages = 10_000;
const topics = ['refund', 'parking', 'warranty', 'holiday', 'invoice', 'security', 'laptop', 'training'];
const questions = [
  'How do I ask for a refund?',
  'Where can employees park?',
  'laptop security rules',
  'zebra',
];

/**
 * Knowledge search over 10,000 passages of one base (full text, and hybrid with the model double's
 * vectors ranked in process), and the time from uploading a 100-page PDF to its being `ready`.
 */
export async function printKnowledgeFigures(): Promise<void> {
  const model = await startOpenAiDouble();
  const server = await startApp({ OPENAI_BASE_URL: model.url });
  try {
    const owner = await loginOwner(server, 'app');
    const base = await createBase(server, owner, 'Bench');
    const document = await uploadDocument(server, owner, base._id, Buffer.from('Bench seed.'), 'seed.txt');
    await settled(server, owner, base._id);
    // Seeded in bulk through SQL: the figure is the search, not 10,000 uploads.
    const texts = Array.from(
      { length: passages },
      (_, n) => `Passage ${n} about the ${topics[n % topics.length]} policy. ${filler(400, n)}`,
    );
    for (let at = 0; at < passages; at += 500) {
      const batch = texts.slice(at, at + 500).map((text, index) => ({
        position: at + index + 1,
        text,
        embedding: embeddingOf(text),
      }));
      await server.app.db.query(
        `insert into knowledge_passages (file_id, position, tenant, base_id, text, embedding)
         select $1, p.position, 'app', $2, p.text, p.embedding
         from jsonb_to_recordset($3::jsonb) as p (position integer, text text, embedding real[])`,
        [document.body._id, base._id, JSON.stringify(batch)],
      );
    }
    await server.app.db.query('analyze');
    console.log(
      `## Knowledge, PGlite: ${passages} passages in one base (model double's 256-dimension vectors)`,
    );

    const who = { tenant: 'app', userId: owner.id };
    const measure = async (withVectors: boolean, rounds: number) => {
      const timings: number[] = [];
      for (let round = 0; round < rounds; round += 1)
        for (const question of questions) {
          const started = performance.now();
          const search = { question, bases: [base._id], files: [], documents: [], limit: 5 };
          if (withVectors) await retrieve(server.app, who, search);
          else await searchPassages(server.app.db, 'app', { ...search, embed: null });
          timings.push(performance.now() - started);
        }
      return timings;
    };
    await measure(true, 1); // warm-up, and this node's copy of the vectors
    const hybrid = await measure(true, 25);
    const load = loadLine();
    console.log(
      `retrieve, hybrid (full text + vectors ranked in process, ${hybrid.length} questions; ${load}): p50 ${ms(percentile(hybrid, 50))} (target ≤ 25 ms), p95 ${ms(percentile(hybrid, 95))}, p99 ${ms(percentile(hybrid, 99))}`,
    );
    const text = await measure(false, 25);
    console.log(
      `retrieve, full text only (${text.length} questions): p50 ${ms(percentile(text, 50))}, p95 ${ms(percentile(text, 95))}, p99 ${ms(percentile(text, 99))}`,
    );

    const pages = 100;
    const pdf = await makePages(
      Array.from(
        { length: pages },
        (_, n) => `Page ${n + 1} on ${topics[n % topics.length]}. ${filler(450, n)}`,
      ),
    );
    const started = performance.now();
    const uploaded = await uploadDocument(server, owner, base._id, pdf, 'hundred.pdf');
    if (uploaded.status !== 201) throw new Error(`upload failed: ${JSON.stringify(uploaded.body)}`);
    await settled(server, owner, base._id, 120_000);
    const indexed = performance.now() - started;

    console.log(
      `## Knowledge, PGlite: ${passages} passages in one base (model double's 256-dimension vectors)`,
    );
    console.log(
      `retrieve, hybrid (full text + vectors ranked in process, ${hybrid.length} questions; ${load}): p50 ${ms(percentile(hybrid, 50))} (target ≤ 25 ms), p95 ${ms(percentile(hybrid, 95))}, p99 ${ms(percentile(hybrid, 99))}`,
    );
    console.log(
      `retrieve, full text only (${text.length} questions): p50 ${ms(percentile(text, 50))}, p95 ${ms(percentile(text, 95))}, p99 ${ms(percentile(text, 99))}`,
    );
    console.log(
      `index time per ${pages} pages (a ${pages}-page PDF of ${pdf.length} bytes, upload to ready): ${ms(indexed)}`,
    );
  } finally {
    await server.close();
    await model.close();
  }
}
