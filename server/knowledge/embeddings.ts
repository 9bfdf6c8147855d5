import type { FastifyInstance } from 'fastify';
import { openProvider } from '../providers/store';

/** Vectors of the texts, in order; null when the provider has no `POST /embeddings` or fails. */
export type Embed = (texts: string[]) => Promise<number[][] | null>;

/** Texts sent in one request: OpenAI takes up to 2048; smaller batches fail less at once. */
const batchSize = 64;

/**
 * The organization's vectors: its first provider (the oldest), else the server's model server, so a
 * base is indexed and searched with one model. Null when there is neither.
 */
export async function embedderFor(app: FastifyInstance, tenant: string): Promise<Embed | null> {
  const { rows } = await app.db.query<{ id: string }>(
    'select id from providers where tenant = $1 order by created_at, id limit 1',
    [tenant],
  );
  const settings = app.config.openai;
  const found = rows[0]
    ? await openProvider(app, tenant, rows[0].id)
    : settings.baseUrl
      ? { baseUrl: settings.baseUrl, apiKey: settings.apiKey, send: fetch }
      : null;
  if (!found) return null;
  const target = found;
  const url = `${target.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const model = app.config.knowledge.embeddingModel;

  async function batch(input: string[]): Promise<number[][] | null> {
    const response = await target.send(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      },
      body: JSON.stringify({ model, input }),
      signal: AbortSignal.timeout(settings.idleTimeoutMs),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: { index: number; embedding: number[] }[] };
    if (!Array.isArray(body.data) || body.data.length !== input.length) return null;
    const vectors = [...body.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    return vectors.every((vector) => Array.isArray(vector) && vector.length > 0) ? vectors : null;
  }

  return async (texts) => {
    const vectors: number[][] = [];
    try {
      for (let at = 0; at < texts.length; at += batchSize) {
        const answer = await batch(texts.slice(at, at + batchSize));
        if (!answer) return null;
        vectors.push(...answer);
      }
    } catch (error) {
      app.log.warn({ err: error }, 'embeddings failed: full-text search only');
      return null;
    }
    return vectors;
  };
}
