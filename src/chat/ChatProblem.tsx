import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { topicMachine } from '../../machines/topic';
import { formatMoney } from '../home/formatMoney';
import { useBilling } from '../home/useBilling';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

/** What went wrong in the chat, in words, with the way forward: retry, or the balance that is short. */
export function ChatProblem({ chat }: { chat: ActorRefFrom<typeof topicMachine> }) {
  const t = useT();
  const error = useSelector(chat, (snapshot) => snapshot.context.error);
  const insufficient = useSelector(chat, (snapshot) => snapshot.matches('insufficientBalance'));
  const canRetry = useSelector(chat, (snapshot) => snapshot.can({ type: 'RETRY' }));
  const { billing } = useBilling();
  return (
    <div className="error-box chat-error" role="alert">
      <span>{t(error?.message ?? 'Something went wrong')}</span>
      {insufficient && billing && (
        <span>
          <T>Your balance</T>:{' '}
          <strong>
            {formatMoney(billing.balance, billing.currency, document.documentElement.lang || 'en')}
          </strong>
        </span>
      )}
      {canRetry && (
        <button type="button" className="button small" onClick={() => chat.send({ type: 'RETRY' })}>
          <T>Retry</T>
        </button>
      )}
      {error?.code === 'NO_BOT' && (
        <Link href="/list" className="button small">
          <T>Choose a bot</T>
        </Link>
      )}
    </div>
  );
}
