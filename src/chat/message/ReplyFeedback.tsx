import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { feedbackMachine, Rating } from '../../../machines/feedback';
import { useT } from '../../i18n/useT';

// Only after a thumb: its own chunk.
const FeedbackReasonDialog = lazy(() => import('./FeedbackReasonDialog'));

export type FeedbackActor = ActorRefFrom<typeof feedbackMachine>;

const thumbs: { rating: Rating; label: string; path: string }[] = [
  {
    rating: 'up',
    label: 'Good',
    path: 'M7 11v9H4v-9zM7 11l4-8a2 2 0 0 1 3 2l-1 5h6a2 2 0 0 1 2 2l-2 6a2 2 0 0 1-2 2H7',
  },
  {
    rating: 'down',
    label: 'Bad',
    path: 'M17 13V4h3v9zM17 13l-4 8a2 2 0 0 1-3-2l1-5H5a2 2 0 0 1-2-2l2-6a2 2 0 0 1 2-2h10',
  },
];

/** A reply's thumbs up and down (toggles), then the optional reason; a failed save says why. */
export function ReplyFeedback({ actor }: { actor: FeedbackActor }) {
  const t = useT();
  const { rating, error } = useSelector(actor, (snapshot) => snapshot.context);
  const asking = useSelector(actor, (snapshot) => snapshot.matches('askingReason'));
  const sending = useSelector(actor, (snapshot) => snapshot.matches('sendingReason'));
  // While a thumb is saved another press is not taken: shown busy, so nobody presses into nothing.
  const saving = useSelector(actor, (snapshot) => snapshot.matches('rating'));
  return (
    <fieldset className="reply-feedback" aria-busy={saving}>
      <legend className="visually-hidden">{t('Rate this reply')}</legend>
      {thumbs.map((thumb) => (
        <button
          key={thumb.rating}
          type="button"
          className="button small ghost thumb"
          aria-pressed={rating === thumb.rating}
          onClick={() => actor.send({ type: 'RATE', rating: thumb.rating })}
        >
          <svg
            className="icon"
            viewBox="0 0 24 24"
            width="16"
            height="16"
            aria-hidden="true"
            focusable="false"
          >
            <path d={thumb.path} />
          </svg>
          {t(thumb.label)}
        </button>
      ))}
      {error && !asking && (
        <span className="field-error" role="alert">
          {t(error)}
        </span>
      )}
      {rating && (asking || sending) && (
        <Suspense fallback={null}>
          <FeedbackReasonDialog
            rating={rating}
            sending={sending}
            error={error}
            onSend={(reason) => actor.send({ type: 'SEND', reason })}
            onSkip={() => actor.send({ type: 'SKIP' })}
          />
        </Suspense>
      )}
    </fieldset>
  );
}
