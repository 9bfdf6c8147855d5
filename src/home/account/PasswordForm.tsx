import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId } from 'react';
import { useActors } from '../../app/ActorsContext';
import { FormError } from '../../components/FormError';
import { Status } from '../../components/Status';
import { TextField } from '../../components/TextField';
import { useFormFields } from '../../forms/useFormFields';
import { T } from '../../i18n/T';

/** A new password, confirmed with the current one; every other session is signed out. */
export function PasswordForm() {
  const { account } = useActors();
  const headingId = useId();
  const state = useSelector(account, (snapshot) => snapshot.value.password);
  const problem = useSelector(account, (snapshot) => snapshot.context.problems.password);
  const { values, field, validate, reset, formError } = useFormFields(
    { password: '', newPassword: '' },
    { password: 'Enter your current password.', newPassword: 'Choose a new password.' },
    problem,
  );

  // Passwords do not stay on screen once they have done their job.
  useEffect(() => {
    if (state === 'changed') reset();
  }, [state, reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (validate()) account.send({ type: 'CHANGE_PASSWORD', ...values });
  };

  return (
    <section className="panel-section" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <T>Change password</T>
      </h3>
      <form className="form compact" noValidate onSubmit={submit}>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...field('password')}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters. Your other devices will be logged out."
          {...field('newPassword')}
        />
        <FormError message={formError} />
        <button type="submit" className="button small primary" disabled={state === 'changing'}>
          <T>Change password</T>
        </button>
        <Status message={state === 'changed' ? 'Password changed' : null} />
      </form>
    </section>
  );
}
