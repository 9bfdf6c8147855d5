import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

/** A list that could not be loaded: the reason, announced, and a way to try again. */
export function ListProblem({ error, onRetry }: { error: string | null; onRetry: () => void }) {
  const t = useT();
  return (
    <div className="problem" role="alert">
      <p>{t(error ?? 'Something went wrong')}</p>
      <button type="button" className="button small" onClick={onRetry}>
        <T>Retry</T>
      </button>
    </div>
  );
}
