import { useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import type { InvitationRecord } from '../../../machines/adminList';
import { FormError } from '../../components/FormError';
import { RelativeTime } from '../../components/RelativeTime';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { ListProblem } from '../ListProblem';
import { TableScroll } from '../TableScroll';
import { useAdmin } from '../useAdmin';
import { roleLabels } from './roleLabels';

const notices = { update: 'Invitation sent again', remove: 'Invitation revoked' } as const;

/**
 * The invitations not accepted yet, above the members: who, with which role, since when and until
 * when (an expired one says so), each with Resend and Revoke (after a confirmation). Nothing is
 * shown while there are none.
 */
export function PendingInvitations() {
  const { invitations } = useAdmin();
  const t = useT();
  const format = useFormat();
  const headingId = useId();
  const items = useSelector(invitations, (snapshot) => snapshot.context.items);
  const { list, change } = useSelector(invitations, (snapshot) => snapshot.value);
  const { target, problem, error, done } = useSelector(invitations, (snapshot) => snapshot.context);

  useEffect(() => {
    invitations.send({ type: 'LOAD' });
  }, [invitations]);

  const busy = change === 'saving' || change === 'removing';
  const resend = (invitation: InvitationRecord) =>
    invitations.send({ type: 'SAVE', change: { kind: 'update', id: invitation._id, values: {} } });
  const revoke = (invitation: InvitationRecord) => {
    // A resend that failed leaves its problem shown (the list's "editing"): asking to revoke puts it aside.
    if (change === 'editing') invitations.send({ type: 'CANCEL' });
    invitations.send({ type: 'ASK_REMOVE', record: invitation });
  };
  const now = Date.now();

  return (
    <>
      {list === 'failed' && <ListProblem error={error} onRetry={() => invitations.send({ type: 'RETRY' })} />}
      {items.length > 0 && (
        <section aria-labelledby={headingId}>
          <h2 id={headingId}>
            <T>Pending invitations</T>
          </h2>
          <FormError message={change === 'editing' ? (problem?.message ?? null) : null} />
          <TableScroll stacks>
            <table className="admin-table" aria-labelledby={headingId} aria-busy={busy || list === 'loading'}>
              <thead>
                <tr>
                  <th scope="col">{t('Email')}</th>
                  <th scope="col">{t('Role')}</th>
                  <th scope="col">{t('Invited')}</th>
                  <th scope="col">{t('Expires')}</th>
                  <th scope="col">{t('Actions')}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((invitation) => (
                  <tr key={invitation._id}>
                    <th scope="row">
                      <bdi>{invitation.email}</bdi>
                    </th>
                    <td data-label={t('Role')}>{t(roleLabels[invitation.role])}</td>
                    <td data-label={t('Invited')}>
                      <RelativeTime iso={invitation.invitedAt} now={now} />
                    </td>
                    <td data-label={t('Expires')}>
                      {Date.parse(invitation.expiresAt) <= now ? (
                        <strong className="expired">
                          <T>Expired</T>
                        </strong>
                      ) : (
                        <time dateTime={invitation.expiresAt}>
                          {format.dateTime(new Date(invitation.expiresAt))}
                        </time>
                      )}
                    </td>
                    <td className="row-actions">
                      {/* Not disabled while busy (focus would drop to the page): the list ignores a second change. */}
                      <button
                        type="button"
                        className="button small"
                        aria-disabled={busy}
                        aria-label={`${t('Resend')} ${invitation.email}`}
                        onClick={() => resend(invitation)}
                      >
                        <T>Resend</T>
                      </button>
                      <button
                        type="button"
                        className="button small danger"
                        aria-disabled={busy}
                        aria-haspopup="dialog"
                        aria-label={`${t('Revoke')} ${invitation.email}`}
                        onClick={() => revoke(invitation)}
                      >
                        <T>Revoke</T>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      )}
      <Status message={done === 'update' || done === 'remove' ? notices[done] : null} />
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Revoke this invitation?"
          message="Its code stops working at once; you can invite the address again later."
          name={target.email}
          confirm="Revoke"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => invitations.send({ type: 'CONFIRM' })}
          onCancel={() => invitations.send({ type: 'CANCEL' })}
        />
      )}
    </>
  );
}
