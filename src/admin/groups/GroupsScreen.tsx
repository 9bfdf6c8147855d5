import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { ListProblem } from '../ListProblem';
import { useAdmin } from '../useAdmin';
import { GroupDialog } from './GroupDialog';
import { GroupMembersDialog } from './GroupMembersDialog';

const lead =
  'A bot limited to groups is for their members only. A monthly budget caps what each member spends a month; with several groups, the smallest budget counts.';
const notices = { create: 'Group created', update: 'Group saved', remove: 'Group deleted' } as const;

/**
 * The organization's groups: who may use the bots limited to them, and how much each member may spend
 * a month. Create, edit, choose the members, delete.
 */
export function GroupsScreen() {
  const { groups } = useAdmin();
  const t = useT();
  const items = useSelector(groups, (snapshot) => snapshot.context.items);
  const list = useSelector(groups, (snapshot) => snapshot.value.list);
  const change = useSelector(groups, (snapshot) => snapshot.value.change);
  const { editing, target, problem, error, done } = useSelector(groups, (snapshot) => snapshot.context);
  // Which of a group's dialogs the edit is in: its settings or its members.
  const [dialog, setDialog] = useState<'settings' | 'members'>('settings');

  useEffect(() => {
    groups.send({ type: 'LOAD' });
  }, [groups]);

  const open = (id: string, which: 'settings' | 'members') => {
    setDialog(which);
    groups.send({ type: 'EDIT', id });
  };
  const editingOpen = (change === 'editing' || change === 'saving') && editing !== null;
  const edited = items.find((item) => item._id === editing) ?? null;
  const save = (values: Record<string, unknown>) =>
    groups.send({
      type: 'SAVE',
      change:
        editing === 'new' || editing === null
          ? { kind: 'create', values }
          : { kind: 'update', id: editing, values },
    });

  return (
    <section aria-labelledby="admin-groups">
      <div className="admin-heading">
        <h1 id="admin-groups">
          <T>Groups</T>
        </h1>
        <button
          type="button"
          className="button primary"
          aria-haspopup="dialog"
          onClick={() => open('new', 'settings')}
        >
          <T>Add group</T>
        </button>
      </div>
      <p className="lead">{t(lead)}</p>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => groups.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No groups yet.</T>
        </p>
      )}
      <ul className="card-list">
        {items.map((group) => (
          <li key={group._id} className="card">
            <h2>
              <bdi>{group.name}</bdi>
            </h2>
            <dl className="facts">
              <dt>{t('Monthly budget per member')}</dt>
              <dd>{group.monthlyBudget === null ? t('No limit') : group.monthlyBudget}</dd>
              <dt>{t('Members')}</dt>
              <dd>{group.members.length}</dd>
              <dt>{t('Bots')}</dt>
              <dd>{group.bots.length}</dd>
              {group.idpGroups.length > 0 && (
                <>
                  <dt>{t('Identity provider groups')}</dt>
                  <dd>
                    <bdi>{group.idpGroups.join(', ')}</bdi>
                  </dd>
                </>
              )}
            </dl>
            <div className="actions">
              <button
                type="button"
                className="button small"
                aria-haspopup="dialog"
                aria-label={`${t('Edit')} ${group.name}`}
                onClick={() => open(group._id, 'settings')}
              >
                <T>Edit</T>
              </button>
              <button
                type="button"
                className="button small"
                aria-haspopup="dialog"
                aria-label={`${t('Members')} ${group.name}`}
                onClick={() => open(group._id, 'members')}
              >
                <T>Members</T>
              </button>
              <button
                type="button"
                className="button small danger"
                aria-label={`${t('Delete')} ${group.name}`}
                onClick={() => groups.send({ type: 'ASK_REMOVE', record: group })}
              >
                <T>Delete</T>
              </button>
            </div>
          </li>
        ))}
      </ul>
      <Status message={done ? notices[done] : null} />
      {editingOpen && dialog === 'settings' && (
        <GroupDialog
          group={editing === 'new' ? null : edited}
          saving={change === 'saving'}
          problem={problem}
          onSave={save}
          onCancel={() => groups.send({ type: 'CANCEL' })}
        />
      )}
      {editingOpen && dialog === 'members' && edited && (
        <GroupMembersDialog
          group={edited}
          saving={change === 'saving'}
          problem={problem}
          onSave={(members) => save({ members })}
          onCancel={() => groups.send({ type: 'CANCEL' })}
        />
      )}
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Delete this group?"
          message="Its members lose its bots and its budget. A group that is the only one a bot is limited to cannot be deleted."
          name={target.name}
          confirm="Delete"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => groups.send({ type: 'CONFIRM' })}
          onCancel={() => groups.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}
