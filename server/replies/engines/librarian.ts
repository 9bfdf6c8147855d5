import type { ReplyRequest } from '../../providers/types';

/** What the Librarian quotes at most: the best passages, each with its citation. */
export const librarianPassages = 3;

const where = (passage: { name: string; page?: number }) =>
  `*${passage.name}*${passage.page ? `, page ${passage.page}` : ''}`;

/**
 * The Librarian answers with no model: the passages the search found (the route searched the files
 * of the conversation and the bot's knowledge bases), quoted with their `[n]` markers and sources,
 * or plainly that nothing matches. Saying so, or that there is nothing to search, is free.
 */
export function librarianReply(request: ReplyRequest): string {
  const { passages = [], sources = 0 } = request.knowledge ?? {};
  if (!sources) {
    request.waive();
    return 'I have no documents to search yet. Attach a document (PDF, Word, text) to your message, or ask an administrator to give me a knowledge base.';
  }
  if (!passages.length) {
    request.waive();
    return 'Nothing in the documents I searched matches your question. Try other words, or the exact terms the documents use.';
  }
  const quotes = passages
    .slice(0, librarianPassages)
    .map((passage) => `> ${passage.snippet.replace(/\n+/g, ' ')} [${passage.n}]`);
  const sourcesList = passages
    .slice(0, librarianPassages)
    .map((passage) => `[${passage.n}] ${where(passage)}`);
  return `Here is what I found:\n\n${quotes.join('\n\n')}\n\nSources: ${sourcesList.join('; ')}`;
}
