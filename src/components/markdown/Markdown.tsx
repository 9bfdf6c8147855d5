import type { Token, Tokens } from 'marked';
import { memo, useMemo } from 'react';
import '../../styles/markdown.css';
import { textDir } from '../../i18n/bidi';
import { CodeBlock } from './CodeBlock';
import { mathModule } from './extras';
import { useLazyModule } from './lazyModule';
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

const isMath = (token: Token) => token.type === 'inlineMath' || token.type === 'displayMath';

function hasMath(token: Token): boolean {
  let found = false;
  markdown.walkTokens([token], (child) => {
    found ||= isMath(child);
  });
  return found;
}

// Tables and formulas may be wider than the message: they scroll sideways inside it, not the page.
const isWide = (token: Token) => token.type === 'table' || token.type === 'displayMath';

/** A block rendered to sanitized HTML. */
function HtmlBlock({ token }: { token: Token }) {
  // The math renderer reads KaTeX once it has arrived; a block with a formula asks for it and renders
  // again then. Blocks without one never subscribe.
  const withMath = useMemo(() => hasMath(token), [token]);
  useLazyModule(mathModule, withMath);
  const html = sanitize(markdown.parser([token] as Token[] as never));
  // Each block takes its own direction: a reply may mix an Arabic paragraph with an English one.
  const dir = textDir(token.raw);
  const className = isWide(token) ? 'markdown-block wide' : 'markdown-block';
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above
  return <div className={className} dir={dir} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** One top-level block, rendered once for a given source: finished blocks never render again. */
const Block = memo(
  function Block({ token, t }: { token: Token; t: (text: string) => string }) {
    if (token.type === 'code') {
      const code = token as Tokens.Code;
      return <CodeBlock code={code.text} language={code.lang ?? ''} t={t} />;
    }
    return <HtmlBlock token={token} />;
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
