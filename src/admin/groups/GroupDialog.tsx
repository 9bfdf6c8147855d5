import { type FormEvent, useRef, useState } from 'react';
import type { AdminProblem, GroupRecord } from '../../../machines/adminList';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { useFormFields } from '../../forms/useFormFields';
import { TextAreaField } from '../fields/TextAreaField';
import { useFocusFirstProblem } from '../useFocusFirstProblem';

interface GroupDialogProps {
  /** The group being edited; null for a new one. */
  group: GroupRecord | null;
  saving: boolean;
  problem: AdminProblem | null;
  onSave: (values: { name: string; monthlyBudget: number | null; idpGroups: string[] }) => void;
  onCancel: () => void;
}

const budgetProblem = 'Enter an amount of 0 or more, or leave it empty for no limit.';

/** A group's name, monthly budget per member (empty: no limit) and IdP group names, one a line. */
export function GroupDialog({ group, saving, problem, onSave, onCancel }: GroupDialogProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [badBudget, setBadBudget] = useState(false);
  useFocusFirstProblem(formRef, attempt, saving);
  const { values, field, validate, formError } = useFormFields(
    {
      name: group?.name ?? '',
      monthlyBudget:
        group?.monthlyBudget === null || group?.monthlyBudget === undefined
          ? ''
          : String(group.monthlyBudget),
      idpGroups: group?.idpGroups.join('\n') ?? '',
    },
    { name: 'Enter a name.' },
    problem,
  );
  const budget = field('monthlyBudget');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    const typed = values.monthlyBudget.trim().replace(',', '.');
    const invalidBudget = typed !== '' && !(Number.isFinite(Number(typed)) && Number(typed) >= 0);
    setBadBudget(invalidBudget);
    if (!validate() || invalidBudget) return;
    onSave({
      name: values.name.trim(),
      monthlyBudget: typed === '' ? null : Number(typed),
      idpGroups: values.idpGroups
        .split('\n')
        .map((name) => name.trim())
        .filter(Boolean),
    });
  };

  return (
    <Dialog title={group ? 'Edit group' : 'Add group'} role="dialog" onClose={onCancel}>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField label="Name" maxLength={80} {...field('name')} />
        <TextField
          label="Monthly budget per member"
          inputMode="decimal"
          hint="In your organization’s currency, per calendar month (UTC). Leave empty for no limit."
          {...budget}
          error={badBudget ? budgetProblem : budget.error}
          onChange={(event) => {
            setBadBudget(false);
            budget.onChange(event);
          }}
        />
        <TextAreaField
          label="Identity provider groups"
          hint="One name a line. With single sign-on, members of these groups join this group when they log in."
          rows={3}
          {...field('idpGroups')}
        />
        <FormError message={formError} />
        <DialogActions onCancel={onCancel} busy={saving} />
      </form>
    </Dialog>
  );
}
