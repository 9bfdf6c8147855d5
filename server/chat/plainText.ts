import { lexer, type Token } from 'marked';

/** The words of a markdown text without its markup: for previews, snippets and search results. */
export function plainText(markdown: string): string {
  const words: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if ('tokens' in token && token.tokens?.length) walk(token.tokens);
      else if (token.type === 'list') walk(token.items);
      else if (token.type === 'table') {
        for (const cell of [...token.header, ...token.rows.flat()]) walk(cell.tokens);
      } else if ('text' in token && typeof token.text === 'string') words.push(token.text);
      if (token.type === 'paragraph' || token.type === 'heading' || token.type === 'code') words.push(' ');
    }
  };
  walk(lexer(markdown));
  return words.join('').replace(/\s+/g, ' ').trim();
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export interface Snippet {
  text: string;
  /** [start, end) of each matched word in `text`. */
  highlights: [number, number][];
}

/**
 * A short passage of `text` around the first word that starts with one of `words`, case- and
 * accent-insensitively, with every such word marked.
 */
export function snippet(text: string, words: string[], radius = 60): Snippet {
  const wanted = words.map(fold).filter(Boolean);
  const found: [number, number][] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = fold(match[0]);
    if (wanted.some((prefix) => word.startsWith(prefix)))
      found.push([match.index, match.index + match[0].length]);
  }
  const center = found[0]?.[0] ?? 0;
  let start = Math.max(0, center - radius);
  let end = Math.min(text.length, center + radius * 2);
  // Whole words at both ends.
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  if (end < text.length) end = text.lastIndexOf(' ', end) > center ? text.lastIndexOf(' ', end) : end;
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  return {
    text: `${prefix}${text.slice(start, end)}${suffix}`,
    highlights: found
      .filter(([from, to]) => from >= start && to <= end)
      .map(([from, to]) => [from - start + prefix.length, to - start + prefix.length]),
  };
}
