import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { useActors } from '../../app/ActorsContext';
import { FormError } from '../../components/FormError';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { ListProblem } from '../ListProblem';
import { TableScroll } from '../TableScroll';
import { useAdmin } from '../useAdmin';
import { CreditDialog } from './CreditDialog';
import { InviteDialog } from './InviteDialog';
import { MemberRow } from './MemberRow';
import { PendingInvitations } from './PendingInvitations';

/** The organization's members: search, pages, roles, suspension, credit, and invitations. */
export function MembersScreen() {
  const { members } = useAdmin();
  const { session } = useActors();
  const t = useT();
  const format = useFormat();
  const searchId = useId();
  const inviteButton = useRef<HTMLButtonElement>(null);
  const myRole = useSelector(session, (snapshot) => snapshot.context.user?.role);
  const myId = useSelector(session, (snapshot) => snapshot.context.user?._id);
  const { items, next, query, error, changeError, target, invited } = useSelector(
    members,
    (snapshot) => snapshot.context,
  );
  const { list, update, credit, invite } = useSelector(members, (snapshot) => snapshot.value);

  useEffect(() => {
    members.send({ type: 'LOAD' });
  }, [members]);

  const creditNotice =
    credit === 'granted' && target
      ? `${t('New balance of')} ${target.displayName}: ${format.money(target.balance, target.currency ?? 'EUR')}`
      : null;

  return (
    <section aria-labelledby="admin-members">
      <div className="admin-heading">
        <h1 id="admin-members">
          <T>Members</T>
        </h1>
        <button
          ref={inviteButton}
          type="button"
          className="button primary"
          aria-haspopup="dialog"
          onClick={() => members.send({ type: 'OPEN_INVITE' })}
        >
          <T>Invite</T>
        </button>
      </div>
      <PendingInvitations />
      <search className="field search-field">
        <label htmlFor={searchId}>{t('Search members')}</label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder={t('Name, username or email')}
          onChange={(event) => members.send({ type: 'SEARCH', query: event.target.value })}
        />
      </search>
      <FormError message={changeError} />
      {(list === 'loading' || list === 'debouncing') && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => members.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No members found.</T>
        </p>
      )}
      {items.length > 0 && (
        <TableScroll stacks>
          <table
            className="admin-table"
            aria-labelledby="admin-members"
            aria-busy={list === 'loading' || update === 'updating'}
          >
            <thead>
              <tr>
                <th scope="col">{t('Member')}</th>
                <th scope="col">{t('Email')}</th>
                <th scope="col">{t('Role')}</th>
                <th scope="col">{t('Status')}</th>
                <th scope="col">{t('Balance')}</th>
                <th scope="col">{t('Actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((member) => (
                <MemberRow
                  key={member._id}
                  member={member}
                  myRole={myRole}
                  isMe={member._id === myId}
                  busy={update === 'updating'}
                />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {next !== null && list !== 'failed' && (
        <button
          type="button"
          className="button small load-more"
          disabled={list === 'loadingMore'}
          onClick={() => members.send({ type: 'LOAD_MORE' })}
        >
          {list === 'loadingMore' ? t('Loading…') : t('Load more')}
        </button>
      )}
      {list === 'loaded' && <FormError message={error} />}
      <Status
        message={
          creditNotice ?? (invite === 'sent' && invited ? `${t('Invitation sent to')} ${invited}` : null)
        }
      />
      {(credit === 'open' || credit === 'granting') && target && <CreditDialog />}
      {(invite === 'open' || invite === 'inviting') && <InviteDialog returnFocus={inviteButton} />}
    </section>
  );
}
