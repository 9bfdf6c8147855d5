import { useEffect, useState } from 'react';

type CopyButtonProps = {
  text: string;
  /**
   * The UI's words in the user's language. Given, not read from the app: a code block copies with
   * it inside Markdown, which renders with the t it is handed (outside the app's actors too).
   */
  t: (text: string) => string;
} & (
  | {
      /** What is copied, translated, added to the accessible name for screen readers, in brackets. */
      what: string;
      name?: never;
    }
  | {
      /** The whole accessible name, translated, when it says more than the button shows ("Copy code"). */
      name: string;
      what?: never;
    }
);

/** Copies a text to the clipboard; a check mark and "Copied" confirm it for two seconds. */
export function CopyButton({ text, t, what, name }: CopyButtonProps) {
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
    <button
      type="button"
      className="button small ghost"
      onClick={copy}
      aria-label={name}
      data-copied={copied || undefined}
    >
      {copied ? (
        <>
          <span aria-hidden="true">✓ </span>
          {t('Copied')}
        </>
      ) : (
        t('Copy')
      )}
      {what && <span className="visually-hidden"> ({what})</span>}
    </button>
  );
}
