import { useSelector } from '@xstate/react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { useAdmin } from '../useAdmin';
import { useFocusFirstProblem } from '../useFocusFirstProblem';

/** Grants credit to a member (a negative amount deducts), with a note they see in their order history. */
export function CreditDialog() {
  const { members } = useAdmin();
  const t = useT();
  const format = useFormat();
  const descriptionId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const { target, problems } = useSelector(members, (snapshot) => snapshot.context);
  const granting = useSelector(members, (snapshot) => snapshot.matches({ credit: 'granting' }));
  useFocusFirstProblem(formRef, attempt, granting);
  const problemOf = (field: 'amount' | 'note') =>
    problems.find((problem) => problem.field === field)?.message;
  const formProblem = problems.find((problem) => problem.field === null)?.message ?? null;
  const cancel = () => members.send({ type: 'CANCEL' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    members.send({ type: 'GRANT', amount, note });
    setAttempt((count) => count + 1);
  };

  return (
    <Dialog title="Grant or deduct credit" role="dialog" describedBy={descriptionId} onClose={cancel}>
      <p id={descriptionId}>
        <bdi>{target?.displayName}</bdi> — {t('Balance')}:{' '}
        <strong>{format.money(target?.balance ?? 0, target?.currency ?? 'EUR')}</strong>
      </p>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField
          label="Amount"
          inputMode="decimal"
          hint="A negative amount deducts."
          value={amount}
          error={problemOf('amount')}
          onChange={(event) => setAmount(event.target.value)}
        />
        <TextField
          label="Note"
          maxLength={200}
          hint="The member sees it in their order history."
          value={note}
          error={problemOf('note')}
          onChange={(event) => setNote(event.target.value)}
        />
        <FormError message={formProblem} />
        <DialogActions onCancel={cancel} busy={granting} submit={<T>Book credit</T>} />
      </form>
    </Dialog>
  );
}
