import { useSelector } from '@xstate/react';
import { lazy, Suspense, useId } from 'react';
import { Link } from 'wouter';
import { profileFlagsOf } from '../../../machines/sidePanel';
import { isAdmin } from '../../admin/isAdmin';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { AccountActions } from '../account/AccountActions';
import { ApiKeysSection } from '../account/ApiKeysSection';
import { ImportSection } from '../account/ImportSection';
import { MemorySection } from '../account/MemorySection';
import { PasswordForm } from '../account/PasswordForm';
import { PersonalizationSection } from '../account/PersonalizationSection';
import { ProfileForm } from '../account/ProfileForm';
import { useBilling } from '../useBilling';
import { ThemeChoice } from './ThemeChoice';

// Its machine and dialog load with the panel's section, not with the chat.
const PromptsSection = lazy(() => import('../account/PromptsSection'));
const VoiceSection = lazy(() => import('../account/VoiceSection'));

/** The user, the balance behind its flag, the order history and currency, and the account's own settings. */
export function ProfileView() {
  const { session } = useActors();
  const { sidePanel } = useWorkspace();
  const t = useT();
  const currencyId = useId();
  const user = useSelector(session, (snapshot) => snapshot.context.user);
  const flags = useSelector(sidePanel, profileFlagsOf);
  const { billing, failed, retry } = useBilling();
  const format = useFormat();
  const money = (amount: number) => format.money(amount, billing?.currency ?? 'EUR');

  return (
    <div className="panel-view">
      <p>
        <strong>
          <Bdi text={user?.displayName ?? ''} />
        </strong>{' '}
        <span className="muted">@{user?.username}</span>
      </p>
      {isAdmin(user?.role) && (
        <p>
          <Link href="/admin" className="button small">
            <T>Admin</T>
          </Link>
        </p>
      )}
      <div className="panel-section">
        <button
          type="button"
          className="button small"
          aria-expanded={flags.balanceShown}
          onClick={() => sidePanel.send({ type: 'TOGGLE_BALANCE' })}
        >
          {flags.balanceShown ? t('Hide balance') : t('Show balance')}
        </button>
        {flags.balanceShown && (
          <p className="balance">
            <T>Balance</T>:{' '}
            {billing ? (
              <strong>{money(billing.balance)}</strong>
            ) : failed ? (
              t('Could not load your balance')
            ) : (
              t('Loading…')
            )}
            {failed && (
              <button type="button" className="button small" onClick={retry}>
                <T>Retry</T>
              </button>
            )}
          </p>
        )}
      </div>
      <div className="panel-section">
        <button
          type="button"
          className="button small"
          aria-expanded={flags.orderInfoShown}
          onClick={() => sidePanel.send({ type: 'TOGGLE_ORDER_INFO' })}
        >
          <T>Order history</T>
        </button>
        {flags.orderInfoShown && (
          <ul className="transactions">
            {(billing?.transactions ?? []).map((transaction) => (
              <li key={transaction._id}>
                <span>{t(transaction.description)}</span> <strong>{money(transaction.amount)}</strong>
                <time className="transaction-date" dateTime={transaction.createdAt}>
                  {format.shortDateTime(new Date(transaction.createdAt))}
                </time>
              </li>
            ))}
            {billing && billing.transactions.length === 0 && (
              <li className="empty">
                <T>No charges yet.</T>
              </li>
            )}
          </ul>
        )}
      </div>
      <div className="panel-section">
        <button
          type="button"
          className="button small"
          aria-expanded={flags.currencySelectShown}
          onClick={() => sidePanel.send({ type: 'TOGGLE_CURRENCY_SELECT' })}
        >
          <T>Currency</T>
        </button>
        {flags.currencySelectShown && (
          <div className="field">
            <label htmlFor={currencyId}>
              <T>Billing currency</T>
            </label>
            <select
              id={currencyId}
              value={billing?.currency ?? 'EUR'}
              disabled
              aria-describedby={`${currencyId}-hint`}
            >
              <option value={billing?.currency ?? 'EUR'}>{billing?.currency ?? 'EUR'}</option>
            </select>
            <p id={`${currencyId}-hint`} className="field-hint">
              <T>Your organization sets the billing currency.</T>
            </p>
          </div>
        )}
      </div>
      <ThemeChoice />
      <Suspense fallback={null}>
        <VoiceSection />
      </Suspense>
      <ProfileForm />
      <PersonalizationSection />
      <MemorySection />
      <Suspense fallback={null}>
        <PromptsSection />
      </Suspense>
      <ImportSection />
      <PasswordForm />
      <ApiKeysSection />
      <AccountActions />
    </div>
  );
}
