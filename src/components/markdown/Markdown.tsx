import type { Token, Tokens } from 'marked';
import { memo } from 'react';
import { textDir } from '../../i18n/bidi';
import { CodeBlock } from './CodeBlock';
import { markdown } from './parser';
import { sanitize } from './sanitize';
import { useBlocks } from './useBlocks';

interface MarkdownProps {
  text: string;
  /** While true, the last block is still growing: only it is parsed and rendered again. */
  streaming: boolean;
  t?: (text: string) => string;
}

const identity = (text: string) => text;

/** One top-level block, rendered once for a given source: finished blocks never render again. */
const Block = memo(
  function Block({ token, t }: { token: Token; t: (text: string) => string }) {
    if (token.type === 'code') {
      const code = token as Tokens.Code;
      return <CodeBlock code={code.text} language={code.lang ?? ''} t={t} />;
    }
    const html = sanitize(markdown.parser([token] as Token[] as never));
    // Each block takes its own direction: a reply may mix an Arabic paragraph with an English one.
    const dir = textDir(token.raw);
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above
    return <div className="markdown-block" dir={dir} dangerouslySetInnerHTML={{ __html: html }} />;
  },
  (previous, next) => previous.token.raw === next.token.raw && previous.t === next.t,
);

/** A bot's reply as sanitized markdown, cheap to re-render token by token while it streams. */
export function Markdown({ text, streaming, t = identity }: MarkdownProps) {
  const blocks = useBlocks(text, streaming);
  return (
    <div className="markdown" aria-busy={streaming || undefined}>
      {blocks.map((token, index) => (
        // Blocks only ever grow at the end, so the index is a stable identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Block key={index} token={token} t={t} />
      ))}
    </div>
  );
}
