import { useSelector } from '@xstate/react';
import { type FormEvent, type RefObject, useId } from 'react';
import { useActors } from '../../app/ActorsContext';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { useFormFields } from '../../forms/useFormFields';
import { T } from '../../i18n/T';

/** Asks for the password before the account goes for good; Cancel or Escape keeps it. */
export function DeleteAccountDialog({ returnFocus }: { returnFocus: RefObject<HTMLElement | null> }) {
  const { account } = useActors();
  const descriptionId = useId();
  const deleting = useSelector(account, (snapshot) => snapshot.matches({ deletion: 'deleting' }));
  const problem = useSelector(account, (snapshot) => snapshot.context.problems.deletion);
  const { values, field, validate, formError } = useFormFields(
    { password: '' },
    { password: 'Enter your password.' },
    problem,
  );
  const cancel = () => account.send({ type: 'CANCEL_DELETE' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (validate()) account.send({ type: 'DELETE_ACCOUNT', password: values.password });
  };

  return (
    <Dialog
      title="Delete your account?"
      describedBy={descriptionId}
      onClose={cancel}
      returnFocus={returnFocus}
    >
      <p id={descriptionId}>
        <T>
          Your profile, conversations, balance and notifications are deleted for good. This cannot be undone.
        </T>
      </p>
      <form className="form compact" noValidate onSubmit={submit}>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          hint="Enter your password to confirm."
          {...field('password')}
        />
        <FormError message={formError} />
        <div className="actions">
          <button type="button" className="button" onClick={cancel}>
            <T>Cancel</T>
          </button>
          <button type="submit" className="button danger primary" disabled={deleting}>
            <T>Delete my account for good</T>
          </button>
        </div>
      </form>
    </Dialog>
  );
}
