import { charsPerToken } from '../files/prompt';

/** About 800 tokens a passage: enough context to answer from, small enough to give a model several. */
export const passageChars = 800 * charsPerToken;
/** Each passage repeats the end of the one before: a sentence cut by the boundary is whole in one of them. */
export const overlapChars = 400;

export interface Piece {
  position: number;
  text: string;
  /** The PDF page (from 1) the passage is on. */
  page?: number;
}

/** Where to end a passage that would run to `limit`: a paragraph, else a sentence, else a word break. */
function endOf(text: string, start: number, limit: number): number {
  if (limit >= text.length) return text.length;
  const from = start + Math.floor((limit - start) * 0.6);
  const window = text.slice(from, limit);
  for (const boundary of [/\n\s*\n/g, /[.!?。](\s)/g, /\s/g]) {
    let last = -1;
    for (const match of window.matchAll(boundary)) last = (match.index ?? 0) + match[0].length;
    if (last > 0) return from + last;
  }
  return limit;
}

/** Splits text into overlapping passages of about `passageChars`. */
function split(text: string, page: number | undefined, pieces: Piece[]) {
  let start = 0;
  while (start < text.length) {
    const end = endOf(text, start, start + passageChars);
    const trimmed = text.slice(start, end).trim();
    if (trimmed) pieces.push({ position: pieces.length, text: trimmed, ...(page ? { page } : {}) });
    if (end >= text.length) break;
    // The next passage starts a little before this one ended, at a word.
    let next = Math.max(start + 1, end - overlapChars);
    const space = text.slice(next, end).search(/\s/);
    if (space >= 0) next += space + 1;
    start = next;
  }
}

/**
 * A document's passages: a PDF page by page (a passage never spans two pages, so its page is
 * exact), anything else as one text.
 */
export function splitPassages(text: string, pageStarts?: number[] | null): Piece[] {
  const pieces: Piece[] = [];
  if (!pageStarts?.length) split(text, undefined, pieces);
  else
    for (const [index, start] of pageStarts.entries())
      split(text.slice(start, pageStarts[index + 1] ?? text.length), index + 1, pieces);
  return pieces;
}
