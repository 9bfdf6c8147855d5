import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors';
import { embedderFor } from '../knowledge/embeddings';
import { fuse, minSimilarity, queryTerms, tsQuery, unit } from '../knowledge/search';
import type { Owner } from '../owner';
import {
  addMemory,
  type Memory,
  maxMemories,
  memoriesToRank,
  memoryVectors,
  personalFor,
  type Recalled,
  setEmbedding,
} from './store';

/** The longest memory: a short fact. */
export const memoryMaxLength = 1000;
/** How many memories a reply is given at most: all of them up to this many, else the most relevant. */
export const memoriesGiven = 20;

/** A memory's text as kept: trimmed, 1 to `memoryMaxLength` characters; else a 400 about `text`. */
export function memoryText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) throw new ApiError(400, 'Please fill in text.', 'INVALID_INPUT', 'text');
  if ([...trimmed].length > memoryMaxLength)
    throw new ApiError(
      400,
      `A memory is at most ${memoryMaxLength} characters: keep it to one short fact.`,
      'INVALID_INPUT',
      'text',
    );
  return trimmed;
}

/**
 * Computes a memory's vector when the organization's provider answers `/embeddings`, apart from the
 * request that saved it: a slow or failing provider never fails or delays the save.
 */
export function embedLater(app: FastifyInstance, owner: Owner, memory: { _id: string; text: string }) {
  (async () => {
    const embed = await embedderFor(app, owner.tenant);
    const vectors = embed && (await embed([memory.text]));
    if (vectors?.[0]) await setEmbedding(app.db, memory._id, memory.text, vectors[0]);
  })().catch((error) => app.log.warn({ err: error }, 'a memory’s vector was not computed'));
}

/**
 * Saves a memory of the member's (checked text; a project they may read): 409 when memory is full or
 * already holds it. Its vector follows in the background.
 */
export async function saveMemory(
  app: FastifyInstance,
  owner: Owner,
  memory: { text: string; project: string | null; source: Memory['source'] },
): Promise<Memory> {
  const saved = await addMemory(app.db, owner, { ...memory, text: memoryText(memory.text) });
  if (saved === 'full')
    throw new ApiError(
      409,
      `Your memory is full (${maxMemories} memories): delete some you no longer need first.`,
      'MEMORY_FULL',
    );
  if (saved === 'exists') throw alreadyKept();
  embedLater(app, owner, saved);
  return saved;
}

export const alreadyKept = () =>
  new ApiError(409, 'This is already in your memory.', 'MEMORY_EXISTS', 'text');

/**
 * What a model bot's reply is given of the member: sections of its system prompt, whether memory is
 * on, and the project `remember` saves into (the conversation's while the member may read it).
 */
export interface Personal {
  sections: string[];
  memoryOn: boolean;
  project: string | null;
}

/**
 * The member's custom instructions, then the memories that apply (theirs, everywhere or in the
 * conversation's project): all of them up to `memoriesGiven` in one query; with more, the most
 * relevant to the message — full-text and vectors fused by reciprocal rank as knowledge is searched,
 * the newest filling what is left.
 */
export async function personalization(
  app: FastifyInstance,
  owner: Owner,
  conversation: { text: string; project: string | null },
): Promise<Personal> {
  const found = await personalFor(app.db, owner, conversation.project, memoriesGiven);
  const memories = found.memories ?? (await mostRelevant(app, owner, conversation.text, found.project));
  const sections: string[] = [];
  if (found.instructions.trim())
    sections.push(
      `The user's custom instructions (what they want you to know about them, and how to answer):\n${found.instructions.trim()}`,
    );
  if (memories.length)
    sections.push(
      `What you remember about the user from earlier conversations (use it where it helps):\n${memories
        .map((memory) => `- ${memory.text}`)
        .join('\n')}`,
    );
  return { sections, memoryOn: found.memoryOn, project: found.project };
}

/**
 * Memories' vectors scaled to length 1, by id, kept by this node with the text they were computed for:
 * reading 200 vectors of 1,536 numbers for every message cost 400 ms. A changed text is read again.
 */
const vectorCache = new Map<string, { text: string; unit: Float32Array }>();
const cachedVectors = 4000;

async function vectorsOf(app: FastifyInstance, owner: Owner, memories: { id: string; text: string }[]) {
  const missing = memories.filter((memory) => vectorCache.get(memory.id)?.text !== memory.text);
  if (missing.length)
    for (const row of await memoryVectors(
      app.db,
      owner,
      missing.map((memory) => memory.id),
    )) {
      const scaled = unit(row.embedding);
      if (!scaled) continue;
      vectorCache.delete(row.id);
      if (vectorCache.size >= cachedVectors) vectorCache.delete(vectorCache.keys().next().value as string);
      vectorCache.set(row.id, { text: row.text, unit: scaled });
    }
  return new Map(
    memories.flatMap((memory) => {
      const cached = vectorCache.get(memory.id);
      return cached?.text === memory.text ? [[memory.id, cached.unit] as const] : [];
    }),
  );
}

async function mostRelevant(
  app: FastifyInstance,
  owner: Owner,
  question: string,
  project: string | null,
): Promise<Recalled[]> {
  const terms = queryTerms(question);
  const [all, embed] = await Promise.all([
    memoriesToRank(app.db, owner, project, terms.length ? tsQuery(terms) : ''),
    embedderFor(app, owner.tenant),
  ]);
  const withVectors = all.filter((memory) => memory.vector);
  const [vectors, asked] =
    embed && withVectors.length
      ? await Promise.all([vectorsOf(app, owner, withVectors), embed([question])])
      : [new Map<string, Float32Array>(), null];
  const byText = all.filter((memory) => memory.rank > 0).sort((a, b) => b.rank - a.rank);
  const wanted = asked?.[0] && unit(asked[0]);
  const byVector = wanted
    ? all
        .flatMap((memory) => {
          const vector = vectors.get(memory.id);
          // A vector of another model (another length) is near nothing.
          if (!vector || vector.length !== wanted.length) return [];
          let similarity = 0;
          for (let at = 0; at < vector.length; at += 1) similarity += vector[at] * wanted[at];
          return similarity >= minSimilarity ? [{ memory, similarity }] : [];
        })
        .sort((a, b) => b.similarity - a.similarity)
        .map(({ memory }) => memory)
    : [];
  const newest = [...all].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const chosen = [...fuse([byText, byVector], (memory) => memory.id), ...newest];
  const ids = new Set<string>();
  for (const memory of chosen) {
    if (ids.size === memoriesGiven) break;
    ids.add(memory.id);
  }
  // Given oldest first, as when they are all given.
  return all
    .filter((memory) => ids.has(memory.id))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map(({ id, text }) => ({ id, text }));
}
