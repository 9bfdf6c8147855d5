import { T } from '../i18n/T';

/** A polite placeholder while a check or a lazy screen is on its way. */
export function Loading() {
  return (
    <div className="centered" role="status" aria-live="polite">
      <T>Loading…</T>
    </div>
  );
}
