import { useId } from 'react';
import { type MemberRecord, type MemberRole, memberRoles } from '../../../machines/members';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { useAdmin } from '../useAdmin';
import { roleLabels } from './roleLabels';

interface MemberRowProps {
  member: MemberRecord;
  /** The role of the admin looking: an admin cannot change an owner, nor make one. */
  myRole: MemberRole | undefined;
  isMe: boolean;
  busy: boolean;
}

/** One member: who, their role (a select), whether suspended, their balance, and what can be done. */
export function MemberRow({ member, myRole, isMe, busy }: MemberRowProps) {
  const { members } = useAdmin();
  const t = useT();
  const format = useFormat();
  const roleId = useId();
  const locked = isMe || (myRole !== 'owner' && member.role === 'owner');
  const roles =
    myRole === 'owner' || member.role === 'owner'
      ? memberRoles
      : memberRoles.filter((role) => role !== 'owner');
  const suspended = member.status === 'suspended';
  // Only an owner credits an admin, an owner or themselves (the server refuses anyone else).
  const canCredit = myRole === 'owner' || (member.role === 'member' && !isMe);
  return (
    <tr>
      <th scope="row">
        <bdi>{member.displayName}</bdi> <span className="muted">@{member.username}</span>
      </th>
      <td data-label={t('Email')}>
        <bdi>{member.email}</bdi>
      </td>
      <td data-label={t('Role')}>
        <label htmlFor={roleId} className="visually-hidden">
          {`${t('Role')}: ${member.displayName}`}
        </label>
        <select
          id={roleId}
          value={member.role}
          disabled={locked || busy}
          onChange={(event) =>
            members.send({
              type: 'CHANGE_MEMBER',
              id: member._id,
              change: { role: event.target.value as MemberRole },
            })
          }
        >
          {roles.map((role) => (
            <option key={role} value={role}>
              {t(roleLabels[role])}
            </option>
          ))}
        </select>
      </td>
      <td data-label={t('Status')}>{suspended ? t('Suspended') : t('Active')}</td>
      <td data-label={t('Balance')}>{format.money(member.balance, member.currency ?? 'EUR')}</td>
      <td className="row-actions">
        {canCredit && (
          <button
            type="button"
            className="button small"
            aria-haspopup="dialog"
            aria-label={`${t('Credit')} ${member.displayName}`}
            onClick={() => members.send({ type: 'OPEN_CREDIT', member })}
          >
            <T>Credit</T>
          </button>
        )}
        {!locked && (
          <button
            type="button"
            className={suspended ? 'button small' : 'button small danger'}
            disabled={busy}
            aria-label={`${suspended ? t('Reinstate') : t('Suspend')} ${member.displayName}`}
            onClick={() =>
              members.send({ type: 'CHANGE_MEMBER', id: member._id, change: { suspended: !suspended } })
            }
          >
            {suspended ? t('Reinstate') : t('Suspend')}
          </button>
        )}
      </td>
    </tr>
  );
}
