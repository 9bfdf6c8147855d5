import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { budgetReachedCode, insufficientBalanceCode } from '../../machines/reply';
import type { topicMachine } from '../../machines/topic';
import { useBilling } from '../home/useBilling';
import { nextMonthStart } from '../i18n/format';
import { T } from '../i18n/T';
import { useFormat } from '../i18n/useFormat';
import { useT } from '../i18n/useT';

/**
 * What went wrong in the chat, in words, with the way forward: Retry when it can help, the balance
 * that is short, the day a monthly budget starts again, or the catalogue when the bot cannot be chatted with.
 */
export function ChatProblem({ chat }: { chat: ActorRefFrom<typeof topicMachine> }) {
  const t = useT();
  const format = useFormat();
  const error = useSelector(chat, (snapshot) => snapshot.context.error);
  const insufficient = useSelector(chat, (snapshot) => snapshot.matches('insufficientBalance'));
  const botUnavailable = useSelector(chat, (snapshot) => snapshot.matches('botUnavailable'));
  const canRetry = useSelector(chat, (snapshot) => snapshot.can({ type: 'RETRY' }));
  const { billing } = useBilling();
  return (
    <div className="error-box chat-error" role="alert">
      {error?.code === budgetReachedCode ? (
        <span>
          {t('You have reached your monthly budget.')} {t('Replies start again on')}{' '}
          <strong>{format.utcDay(nextMonthStart(new Date()))}</strong>.
        </span>
      ) : (
        <span>{t(error?.message ?? 'Something went wrong')}</span>
      )}
      {insufficient && billing && error?.code === insufficientBalanceCode && (
        <span>
          <T>Your balance</T>: <strong>{format.money(billing.balance, billing.currency)}</strong>
        </span>
      )}
      {canRetry && (
        <button type="button" className="button small" onClick={() => chat.send({ type: 'RETRY' })}>
          <T>Retry</T>
        </button>
      )}
      {botUnavailable && (
        <Link href="/list" className="button small">
          <T>Choose a bot</T>
        </Link>
      )}
    </div>
  );
}
