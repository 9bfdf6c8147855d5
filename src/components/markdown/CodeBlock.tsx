import { useEffect, useState } from 'react';

interface CodeBlockProps {
  code: string;
  language: string;
  t: (text: string) => string;
}

/** A fenced code block: its language, the code as text, and a copy button. */
export function CodeBlock({ code, language, t }: CodeBlockProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () =>
    navigator.clipboard.writeText(code).then(
      () => setCopied(true),
      () => setCopied(false),
    );

  return (
    <figure className="code-block">
      <figcaption>
        <span>{language || t('Code')}</span>
        <button type="button" className="button small" onClick={copy} aria-label={t('Copy code')}>
          {copied ? t('Copied') : t('Copy')}
        </button>
      </figcaption>
      {/* Code reads left to right whatever the page's direction. */}
      <pre dir="ltr">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
