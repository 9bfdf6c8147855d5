import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { Link, Redirect } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { PageLayout } from '../components/PageLayout';
import { TextField } from '../components/TextField';
import { useFormFields } from '../forms/useFormFields';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

const required = { email: 'Enter your email address.', password: 'Enter your password.' };

/** Log in with email and password (seed-spec §5). */
export function LoginScreen() {
  const t = useT();
  useDocumentTitle(t('Log in'));
  const { session } = useActors();
  const busy = useSelector(session, (snapshot) => snapshot.hasTag('busy'));
  // A logged-in user has no business here: the session ignores LOGIN and SIGNUP once logged in.
  const loggedIn = useSelector(session, (snapshot) => snapshot.matches({ auth: 'loggedIn' }));
  const { values, field, validate } = useFormFields({ email: '', password: '' }, required);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (validate()) session.send({ type: 'LOGIN', ...values, email: values.email.trim() });
  };

  if (loggedIn) return <Redirect to="/list" replace />;
  return (
    <PageLayout>
      <h1>
        <T>Log in</T>
      </h1>
      <form className="form" noValidate onSubmit={submit}>
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...field('password')} />
        <button type="submit" className="button primary" disabled={busy}>
          <T>Log in</T>
        </button>
      </form>
      <p>
        <Link href="/forgot">
          <T>Forgot password?</T>
        </Link>
      </p>
      <p>
        <T>New here?</T> <Link href="/register">{<T>Create an account</T>}</Link>
      </p>
    </PageLayout>
  );
}
