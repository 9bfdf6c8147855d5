import type { Token } from 'marked';
import { useMemo, useRef } from 'react';
import { markdown } from './parser';

const isBlock = (token: Token) => token.type !== 'space';

interface Finished {
  /** The source the finished blocks came from: always a prefix of the growing text. */
  source: string;
  blocks: Token[];
}

/**
 * The top-level blocks of a markdown text. While it streams, blocks followed by another block are
 * finished and kept; only the tail after them is lexed again, so a token costs the same at
 * paragraph 50 as at paragraph 1. Once the stream ends, the whole text is lexed once for accuracy.
 */
export function useBlocks(text: string, streaming: boolean): Token[] {
  const finished = useRef<Finished>({ source: '', blocks: [] });
  return useMemo(() => {
    if (!streaming || !text.startsWith(finished.current.source))
      finished.current = { source: '', blocks: [] };
    if (!streaming) return markdown.lexer(text).filter(isBlock);

    const { source, blocks } = finished.current;
    const tail = markdown.lexer(text.slice(source.length));
    const lastBlock = tail.findLastIndex(isBlock);
    if (lastBlock <= 0) return [...blocks, ...tail.filter(isBlock)];
    // The top-level tokens' raw texts add up to the source, so the settled part ends where the last block starts.
    const settled = tail.slice(0, lastBlock);
    finished.current = {
      source: source + settled.map((token) => token.raw).join(''),
      blocks: [...blocks, ...settled.filter(isBlock)],
    };
    return [...finished.current.blocks, tail[lastBlock]];
  }, [text, streaming]);
}
