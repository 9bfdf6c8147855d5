import type { FastifyInstance } from 'fastify';
import { retrieve } from '../../knowledge/retrieval';
import type { Owner } from '../../owner';
import { stringArgument } from './arguments';

/** How many passages one search gives the model. */
const passagesPerSearch = 5;

/** `search_knowledge`: the passages of the bot's knowledge bases that answer `query`, best first. */
export function searchKnowledgeTool(app: FastifyInstance, owner: Owner, bases: string[]) {
  return async (args: Record<string, unknown>): Promise<string> => {
    const query = stringArgument(args, 'query', 'search_knowledge');
    const found = await retrieve(app, owner, {
      question: query,
      bases,
      documents: [],
      limit: passagesPerSearch,
    });
    if (!found.passages.length) return `Nothing in the knowledge bases matches "${query}".`;
    return found.passages
      .map((passage) => {
        const page = passage.page === undefined ? '' : `, page ${passage.page}`;
        return `From ${passage.name}${page}:\n${passage.text}`;
      })
      .join('\n\n');
  };
}
