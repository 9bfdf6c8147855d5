import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { Link, Redirect, useSearch } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { PageLayout } from '../components/PageLayout';
import { SsoButton } from '../components/SsoButton';
import { TextField } from '../components/TextField';
import { useFormFields } from '../forms/useFormFields';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

const required = {
  username: 'Enter a username.',
  displayName: 'Enter the name others will see.',
  email: 'Enter your email address.',
  password: 'Choose a password.',
  otp: 'Enter the code we emailed you.',
};

/** Sign up: the five fields of seed-spec §5, with the one-time code mailed on request. */
export function RegisterScreen() {
  const t = useT();
  useDocumentTitle(t('Create your account'));
  const { session } = useActors();
  const busy = useSelector(session, (snapshot) => snapshot.hasTag('busy'));
  // A logged-in user has no business here: the session ignores LOGIN and SIGNUP once logged in.
  const loggedIn = useSelector(session, (snapshot) => snapshot.matches({ auth: 'loggedIn' }));
  const sendingCode = useSelector(session, (snapshot) => snapshot.matches({ oneTimeCode: 'sending' }));
  const codeSent = useSelector(session, (snapshot) => snapshot.matches({ oneTimeCode: 'sent' }));
  // The Error alert says what went wrong (seed-spec §8); the field it is about says it again, in place.
  const fieldError = useSelector(session, (snapshot) => snapshot.context.fieldError);
  // An invitation's link fills in the address it went to (`/register?email=…`).
  const invited = new URLSearchParams(useSearch()).get('email')?.trim() ?? '';
  const { values, field, validate } = useFormFields(
    { username: '', displayName: '', email: invited, password: '', otp: '' },
    required,
    fieldError,
  );

  const sendCode = () => {
    if (validate(['email'])) session.send({ type: 'REQUEST_OTP', email: values.email.trim() });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (validate()) session.send({ type: 'SIGNUP', ...values, email: values.email.trim() });
  };

  if (loggedIn) return <Redirect to="/list" replace />;
  return (
    <PageLayout>
      <h1>
        <T>Create your account</T>
      </h1>
      <SsoButton />
      <form className="form" noValidate onSubmit={submit}>
        <TextField label="Username" autoComplete="username" {...field('username')} />
        <TextField label="Display name" autoComplete="name" {...field('displayName')} />
        <div className="field-row">
          <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
          <button type="button" className="button" onClick={sendCode} disabled={sendingCode}>
            <T>Send code</T>
          </button>
        </div>
        {codeSent && (
          <p className="status" role="status">
            <T>We emailed you a 6-digit code. It is valid for 10 minutes.</T>
          </p>
        )}
        <TextField label="Password" type="password" autoComplete="new-password" {...field('password')} />
        <TextField
          label="One-time code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          {...field('otp')}
        />
        <button type="submit" className="button primary" disabled={busy}>
          <T>Create account</T>
        </button>
      </form>
      <p>
        <T>Already have an account?</T> <Link href="/login">{<T>Log in</T>}</Link>
      </p>
    </PageLayout>
  );
}
