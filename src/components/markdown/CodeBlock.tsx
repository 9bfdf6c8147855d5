import { useMemo } from 'react';
import { CopyButton } from '../CopyButton';
import { highlighterModule } from './extras';
import { useLazyModule } from './lazyModule';

interface CodeBlockProps {
  code: string;
  language: string;
  t: (text: string) => string;
}

/** A fenced code block: its language, the code (highlighted once the highlighter arrives), a copy button. */
export function CodeBlock({ code, language, t }: CodeBlockProps) {
  const highlighter = useLazyModule(highlighterModule, true);
  // The info string's first word names the language ("ts title=x.ts" → ts).
  const name = language.split(/\s/, 1)[0];
  const highlighted = useMemo(() => highlighter?.highlight(code, name), [highlighter, code, name]);

  return (
    <figure className="code-block">
      <figcaption>
        <span>{language || t('Code')}</span>
        <CopyButton text={code} t={t} name={t('Copy code')} />
      </figcaption>
      {/* Code reads left to right whatever the page's direction; a long line scrolls inside the block,
          which the keyboard can reach (tabIndex) to scroll it. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
      <pre dir="ltr" tabIndex={0}>
        {highlighted ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js output, sanitized to its spans
          <code dangerouslySetInnerHTML={{ __html: highlighted }} />
        ) : (
          <code>{code}</code>
        )}
      </pre>
    </figure>
  );
}
