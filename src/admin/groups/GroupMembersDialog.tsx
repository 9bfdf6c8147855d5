import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { AdminProblem, GroupMember, GroupRecord } from '../../../machines/adminList';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { CheckboxField } from '../fields/CheckboxField';
import { useAdmin } from '../useAdmin';

interface GroupMembersDialogProps {
  group: GroupRecord;
  saving: boolean;
  problem: AdminProblem | null;
  onSave: (members: string[]) => void;
  onCancel: () => void;
}

const nameOf = (member: GroupMember) => `${member.displayName} (@${member.username})`;

/**
 * Who is in a group: its members, ticked, and the organization's members found by a search (the
 * members list's own search), to tick or untick; saved all at once.
 */
export function GroupMembersDialog({ group, saving, problem, onSave, onCancel }: GroupMembersDialogProps) {
  const { members } = useAdmin();
  const t = useT();
  const searchId = useId();
  const [chosen, setChosen] = useState<GroupMember[]>(group.members);
  const { items, next, query } = useSelector(members, (snapshot) => snapshot.context);
  const list = useSelector(members, (snapshot) => snapshot.value.list);

  useEffect(() => {
    members.send({ type: 'LOAD' });
  }, [members]);

  const isChosen = (id: string) => chosen.some((member) => member._id === id);
  const toggle = (member: GroupMember, on: boolean) =>
    setChosen((current) =>
      on
        ? [...current.filter((one) => one._id !== member._id), member]
        : current.filter((one) => one._id !== member._id),
    );
  const found = items.filter((member) => !isChosen(member._id));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(chosen.map((member) => member._id));
  };

  return (
    <Dialog title="Group members" role="dialog" onClose={onCancel}>
      <form className="form compact" noValidate onSubmit={submit}>
        <p>
          <strong>
            <bdi>{group.name}</bdi>
          </strong>
        </p>
        <fieldset className="choices">
          <legend>{t('In this group')}</legend>
          {chosen.length === 0 && (
            <p className="field-hint">
              <T>Nobody yet.</T>
            </p>
          )}
          {chosen.map((member) => (
            <CheckboxField
              key={member._id}
              label={nameOf(member)}
              raw
              checked
              onChange={(event) => toggle(member, event.target.checked)}
            />
          ))}
        </fieldset>
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
        <fieldset className="choices" aria-busy={list === 'loading' || list === 'debouncing'}>
          <legend>{t('Add members')}</legend>
          {list === 'loaded' && found.length === 0 && (
            <p className="field-hint">
              <T>No members found.</T>
            </p>
          )}
          {found.map((member) => (
            <CheckboxField
              key={member._id}
              label={nameOf(member)}
              raw
              checked={false}
              onChange={(event) => toggle(member, event.target.checked)}
            />
          ))}
          {next !== null && (
            <button
              type="button"
              className="button small load-more"
              disabled={list === 'loadingMore'}
              onClick={() => members.send({ type: 'LOAD_MORE' })}
            >
              {list === 'loadingMore' ? t('Loading…') : t('Load more')}
            </button>
          )}
        </fieldset>
        <FormError message={problem?.message ?? null} />
        <DialogActions onCancel={onCancel} busy={saving} />
      </form>
    </Dialog>
  );
}
