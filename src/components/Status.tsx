import { useT } from '../i18n/useT';

/**
 * A polite live region for success feedback ("Saved"). It is always in the page, empty when there is
 * nothing to say, so screen readers announce the message when it appears.
 */
export function Status({ message }: { message: string | null }) {
  const t = useT();
  return (
    <p className="status" role="status">
      {message ? t(message) : ''}
    </p>
  );
}
