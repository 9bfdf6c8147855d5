import { useEffect, useState } from 'react';
import { T } from '../i18n/T';

interface CopyButtonProps {
  text: string;
  /** What the button says. */
  label?: string;
  /** What is copied, translated, added to the accessible name for screen readers. */
  what: string;
}

/** Copies a text to the clipboard; a check mark and "Copied" confirm it for two seconds. */
export function CopyButton({ text, label = 'Copy', what }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );

  return (
    <button type="button" className="button small ghost" onClick={copy} data-copied={copied || undefined}>
      {copied ? (
        <>
          <span aria-hidden="true">✓ </span>
          <T>Copied</T>
        </>
      ) : (
        <T>{label}</T>
      )}
      <span className="visually-hidden"> ({what})</span>
    </button>
  );
}
