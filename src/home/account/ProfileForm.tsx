import { useSelector } from '@xstate/react';
import { type FormEvent, useId } from 'react';
import { useActors } from '../../app/ActorsContext';
import { FormError } from '../../components/FormError';
import { Status } from '../../components/Status';
import { TextField } from '../../components/TextField';
import { useFormFields } from '../../forms/useFormFields';
import { T } from '../../i18n/T';

/** The display name and username; only what changed is sent, and the server checks both. */
export function ProfileForm() {
  const { session, account } = useActors();
  const headingId = useId();
  const user = useSelector(session, (snapshot) => snapshot.context.user);
  const state = useSelector(account, (snapshot) => snapshot.value.profile);
  const problem = useSelector(account, (snapshot) => snapshot.context.problems.profile);
  const { values, field, validate, formError } = useFormFields(
    { displayName: user?.displayName ?? '', username: user?.username ?? '' },
    { displayName: 'Enter the name others will see.', username: 'Enter a username.' },
    problem,
  );
  const changes = {
    displayName: values.displayName === user?.displayName ? undefined : values.displayName,
    username: values.username === user?.username ? undefined : values.username,
  };
  const changed = changes.displayName !== undefined || changes.username !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (validate()) account.send({ type: 'SAVE_PROFILE', changes });
  };

  return (
    <section className="panel-section" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <T>Edit profile</T>
      </h3>
      <form className="form compact" noValidate onSubmit={submit}>
        <TextField label="Display name" autoComplete="nickname" {...field('displayName')} />
        <TextField label="Username" autoComplete="username" {...field('username')} />
        <FormError message={formError} />
        <button type="submit" className="button small primary" disabled={!changed || state === 'saving'}>
          <T>Save</T>
        </button>
        <Status message={state === 'saved' ? 'Saved' : null} />
      </form>
    </section>
  );
}
