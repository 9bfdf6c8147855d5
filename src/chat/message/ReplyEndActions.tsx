import { T } from '../../i18n/T';

interface ReplyEndActionsProps {
  onContinue: () => void;
  onRetry: () => void;
}

/** Under a reply that stopped short: ask the bot to go on from there, or for a new reply. */
export function ReplyEndActions({ onContinue, onRetry }: ReplyEndActionsProps) {
  return (
    <div className="reply-end-actions">
      <button type="button" className="button small" onClick={onContinue}>
        <T>Continue</T>
      </button>
      <button type="button" className="button small" onClick={onRetry}>
        <T>Retry</T>
      </button>
    </div>
  );
}
