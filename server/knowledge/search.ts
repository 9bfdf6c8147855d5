import type { Db } from '../db/database';
import type { Embed } from './embeddings';
import type { Piece } from './passages';

/**
 * Words that say nothing about what is asked: a question made only of them matches nothing, and
 * they never make an unrelated passage look relevant (the 'simple' configuration keeps every word).
 */
const stopwords = new Set(
  `a about above after again against all am an and any are as at be because been before being below
  between both but by can could did do does doing down during each few for from further had has have
  having he her here hers him his how i if in into is it its itself just me more most my no nor not
  now of off on once only or other our ours out over own same she should so some such than that the
  their theirs them then there these they this those through to too under until up very was we were
  what when where which while who whom why will with would you your yours tell say says said please
  know find show give get got document documents file files page pages text passage anything something
  le la les un une des du de et ou est sont der die das und ist ein eine el los las y es en`.split(/\s+/),
);

const fold = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The question's words worth searching for, folded; long words also match their other endings. */
export function queryTerms(question: string): string[] {
  const words = fold(question).match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = words.filter((word) => word.length > 1 && !stopwords.has(word));
  return [...new Set(terms)].slice(0, 32);
}

/** The text search query: any of the terms, words of six letters or more by their stem as a prefix. */
export function tsQuery(terms: string[]): string {
  return terms.map((term) => (term.length >= 6 ? `'${term.slice(0, -2)}':*` : `'${term}'`)).join(' | ');
}

/** What a citation quotes of its passage. */
const snippetChars = 300;

/** The part of a passage around its first matching word, about `length` characters, cut at words. */
export function snippetOf(text: string, terms: string[], length = snippetChars): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const folded = fold(flat);
  const stems = terms.map((term) => (term.length >= 6 ? term.slice(0, -2) : term));
  const hits = stems.map((stem) => folded.indexOf(stem)).filter((index) => index >= 0);
  // Folding keeps most offsets (accents drop, letters stay): near enough to centre a snippet.
  const hit = hits.length ? Math.min(...hits) : 0;
  let start = Math.max(0, hit - Math.floor(length / 3));
  let end = Math.min(flat.length, start + length);
  start = Math.max(0, end - length);
  if (start > 0) start = flat.indexOf(' ', start) + 1 || start;
  if (end < flat.length && flat.lastIndexOf(' ', end) > start) end = flat.lastIndexOf(' ', end);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

/** A document searched as it is, without stored passages (a file attached to a conversation). */
export interface LooseDocument {
  fileId: string;
  name: string;
  pieces: Piece[];
}

export interface Found {
  fileId: string;
  name: string;
  position: number;
  page?: number;
  text: string;
}

/** Reciprocal rank fusion's constant: a passage high in either ranking rises, none dominates. */
const fusionK = 60;
/** Candidates taken from each ranking before fusing. */
const candidates = 20;
/** Below this a vector neighbour is not a match: something is always nearest, even for nonsense. */
export const minSimilarity = 0.35;

interface Row {
  file_id: string;
  name: string;
  position: number;
  page: number | null;
  text: string;
}
const toFound = (row: Row): Found => ({
  fileId: row.file_id,
  name: row.name,
  position: row.position,
  text: row.text,
  ...(row.page === null ? {} : { page: row.page }),
});
const key = (found: { fileId: string; position: number }) => `${found.fileId}:${found.position}`;

/**
 * The passages that best answer the question, best first: from the organization's `bases` and the
 * indexed `files` (stored passages), and from `documents` split on the fly. Full-text search ranks
 * them all (accent-folded, as conversation search does); when the stored passages have vectors and
 * `embed` answers, the nearest passages by cosine are fused with it by reciprocal rank. Nothing when
 * nothing matches.
 */
export async function searchPassages(
  db: Db,
  tenant: string,
  request: {
    question: string;
    bases: string[];
    files: string[];
    documents: LooseDocument[];
    limit: number;
    embed?: Embed | null;
  },
): Promise<Found[]> {
  const terms = queryTerms(request.question);
  const loose = request.documents.flatMap((document) =>
    document.pieces.map((piece) => ({ file_id: document.fileId, name: document.name, ...piece })),
  );
  const stored = request.bases.length > 0 || request.files.length > 0;
  // The full text is ranked in the database's thread while this one ranks the vectors: at once.
  const [byText, byVector] = await Promise.all([
    terms.length && (stored || loose.length)
      ? fullText(db, tenant, { query: tsQuery(terms), ...request, loose })
      : [],
    request.embed && stored ? nearest(db, tenant, request) : [],
  ]);
  return fuse([byText, byVector], key).slice(0, request.limit);
}

/**
 * The passages that match the text search query, best first: ranked on their search vectors alone
 * (kept in the row), the texts read for the best `candidates` only.
 */
async function fullText(
  db: Db,
  tenant: string,
  search: {
    query: string;
    bases: string[];
    files: string[];
    loose: (Piece & { file_id: string; name: string })[];
  },
): Promise<Found[]> {
  const { rows } = await db.query<Row>(
    `with q as (select to_tsquery('simple', parley_fold($1)) as query),
     ranked as (
       select p.file_id, p.position, ts_rank_cd(p.search, (select query from q)) as rank
       from knowledge_passages p
       where p.tenant = $2 and (p.base_id = any($3::text[]) or p.base_id is null and p.file_id = any($6::text[]))
         and p.search @@ (select query from q)
       order by rank desc, p.file_id, p.position limit $5),
     found as (
       select p.file_id, f.name, p.position, p.page, p.text, ranked.rank
       from ranked join knowledge_passages p on p.file_id = ranked.file_id and p.position = ranked.position
       join files f on f.id = p.file_id
       union all
       select d.file_id, d.name, d.position, d.page, d.text, ts_rank_cd(v.search, (select query from q))
       from jsonb_to_recordset($4::jsonb) as d (file_id text, name text, position integer, page integer, text text),
            lateral (select to_tsvector('simple', parley_fold(d.text)) as search) as v
       where v.search @@ (select query from q))
     select file_id, name, position, page, text from found
     order by rank desc, file_id, position limit $5`,
    [search.query, tenant, search.bases, JSON.stringify(search.loose), candidates, search.files],
  );
  return rows.map(toFound);
}

interface Vectors {
  /** Each passage's file and position, in the order of `units`. */
  passages: { file_id: string; position: number }[];
  /** Each passage's vector scaled to length 1: a cosine is then a dot product. */
  units: Float32Array[];
}
/**
 * Vectors kept by this node, per base while its set of ready documents stays the same, per indexed
 * file of a project while its document does (a ready document's passages never change): reading
 * 10,000 vectors for every question cost seconds.
 */
const vectorCache = new Map<string, { stamp: string; vectors: Vectors }>();
const cachedSources = 128;

/** The vector scaled to length 1; null for a vector of length 0, which is near nothing. */
export function unit(vector: ArrayLike<number>): Float32Array | null {
  let norm = 0;
  for (let index = 0; index < vector.length; index += 1) norm += vector[index] * vector[index];
  if (!norm) return null;
  const scale = 1 / Math.sqrt(norm);
  return Float32Array.from(vector, (value) => value * scale);
}

/** The vectors of the bases and of the indexed files (cached as `file:` and the file's id). */
async function vectorsOf(db: Db, tenant: string, sources: { bases: string[]; files: string[] }) {
  const { rows: stamps } = await db.query<{ key: string; stamp: string }>(
    `select b.id as key, coalesce(string_agg(d.file_id, ',' order by d.file_id), '') as stamp
     from unnest($2::text[]) as b (id)
     left join knowledge_documents d on d.base_id = b.id and d.tenant = $1 and d.status = 'ready'
     group by b.id
     union all
     select 'file:' || d.file_id, d.created_at::text from knowledge_documents d
     where d.tenant = $1 and d.file_id = any($3::text[]) and d.base_id is null and d.status = 'ready'`,
    [tenant, sources.bases, sources.files],
  );
  const stale = stamps.filter((source) => vectorCache.get(source.key)?.stamp !== source.stamp);
  if (stale.length) {
    const bases = stale.filter((source) => !source.key.startsWith('file:')).map((source) => source.key);
    const files = stale
      .filter((source) => source.key.startsWith('file:'))
      .map((source) => source.key.slice(5));
    const { rows } = await db.query<{ key: string; file_id: string; position: number; embedding: number[] }>(
      `select coalesce(base_id, 'file:' || file_id) as key, file_id, position, embedding from knowledge_passages
       where tenant = $1 and (base_id = any($2::text[]) or base_id is null and file_id = any($3::text[]))
         and embedding is not null`,
      [tenant, bases, files],
    );
    const loaded = new Map(stale.map((source) => [source.key, { passages: [], units: [] } as Vectors]));
    for (const row of rows) {
      const vectors = loaded.get(row.key);
      const scaled = vectors && unit(row.embedding);
      if (!scaled) continue;
      vectors.passages.push({ file_id: row.file_id, position: row.position });
      vectors.units.push(scaled);
    }
    for (const source of stale) {
      vectorCache.delete(source.key);
      if (vectorCache.size >= cachedSources) vectorCache.delete(vectorCache.keys().next().value as string);
      vectorCache.set(source.key, { stamp: source.stamp, vectors: loaded.get(source.key) as Vectors });
    }
  }
  return stamps.flatMap((source) => vectorCache.get(source.key)?.vectors ?? []);
}

/**
 * The `candidates` passages most similar to `question` (a unit vector), at least `minSimilarity`,
 * best first: one pass keeping the best few in order (sorting 10,000 scores cost more than scoring).
 */
function mostSimilar(question: Float32Array, bases: Vectors[]) {
  const best: { file_id: string; position: number; similarity: number }[] = [];
  for (const { passages, units } of bases)
    for (let index = 0; index < units.length; index += 1) {
      const vector = units[index];
      // Vectors of another model (another length) are near nothing.
      if (vector.length !== question.length) continue;
      let similarity = 0;
      for (let at = 0; at < vector.length; at += 1) similarity += vector[at] * question[at];
      if (similarity < minSimilarity) continue;
      if (best.length === candidates && similarity <= best[best.length - 1].similarity) continue;
      let at = best.length === candidates ? best.length - 1 : best.length;
      while (at > 0 && best[at - 1].similarity < similarity) {
        if (at < candidates) best[at] = best[at - 1];
        at -= 1;
      }
      best[at] = { ...passages[index], similarity };
    }
  return best;
}

/** The stored passages nearest the question by their vectors (ranked here: no pgvector). */
async function nearest(
  db: Db,
  tenant: string,
  request: { question: string; bases: string[]; files: string[]; embed?: Embed | null },
): Promise<Found[]> {
  if (!request.embed) return [];
  const [vectors, embedded] = await Promise.all([
    vectorsOf(db, tenant, request),
    request.embed([request.question]),
  ]);
  const question = embedded?.[0] && unit(embedded[0]);
  if (!question) return [];
  const best = mostSimilar(question, vectors);
  if (!best.length) return [];
  const { rows: passages } = await db.query<Row>(
    `select p.file_id, f.name, p.position, p.page, p.text
     from knowledge_passages p join files f on f.id = p.file_id
     where p.tenant = $1 and (p.file_id, p.position) in (select * from unnest($2::text[], $3::integer[]))`,
    [tenant, best.map((scored) => scored.file_id), best.map((scored) => scored.position)],
  );
  const byKey = new Map(passages.map((row) => [key(toFound(row)), toFound(row)]));
  return best.flatMap((row) => byKey.get(`${row.file_id}:${row.position}`) ?? []);
}

/** Reciprocal rank fusion of the rankings: each item scores 1/(k + rank) in each it appears in. */
export function fuse<T>(rankings: T[][], keyOf: (item: T) => string): T[] {
  const scores = new Map<string, { item: T; score: number }>();
  for (const ranking of rankings)
    for (const [rank, item] of ranking.entries()) {
      const entry = scores.get(keyOf(item)) ?? { item, score: 0 };
      entry.score += 1 / (fusionK + rank + 1);
      scores.set(keyOf(item), entry);
    }
  return [...scores.values()].sort((a, b) => b.score - a.score).map((entry) => entry.item);
}
