import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { Link } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { FormError } from '../components/FormError';
import { PageLayout } from '../components/PageLayout';
import { Status } from '../components/Status';
import { TextField } from '../components/TextField';
import { useFormFields } from '../forms/useFormFields';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

/** A forgotten password: a code mailed to the address, then the code and a new password log the user in. */
export function ForgotPasswordScreen() {
  const t = useT();
  useDocumentTitle(t('Reset your password'));
  const { account } = useActors();
  const step = useSelector(account, (snapshot) => snapshot.value.recovery);
  const problem = useSelector(account, (snapshot) => snapshot.context.problems.recovery);
  const email = useSelector(account, (snapshot) => snapshot.context.recoveryEmail);
  const codeStep = step === 'askingCode' || step === 'resetting';
  const { values, field, validate, formError } = useFormFields(
    { email: email ?? '', otp: '', password: '' },
    {
      email: 'Enter your email address.',
      otp: 'Enter the code we emailed you.',
      password: 'Choose a new password.',
    },
    problem,
  );

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    if (validate(['email'])) account.send({ type: 'SEND_RESET_CODE', email: values.email.trim() });
  };
  // A code mailed by the operator (a new organization's owner) or an earlier request.
  const enterCode = () => {
    if (validate(['email'])) account.send({ type: 'ENTER_CODE', email: values.email.trim() });
  };
  const reset = (event: FormEvent) => {
    event.preventDefault();
    if (validate(['otp', 'password']))
      account.send({ type: 'RESET_PASSWORD', otp: values.otp.trim(), password: values.password });
  };

  return (
    <PageLayout>
      <h1>
        <T>Reset your password</T>
      </h1>
      <Status
        message={
          codeStep
            ? 'If an account uses this address, we emailed it a 6-digit code. It is valid for 10 minutes.'
            : null
        }
      />
      {codeStep ? (
        <form className="form" noValidate onSubmit={reset}>
          <p>
            <T>Email</T>: <strong>{email}</strong>{' '}
            <button
              type="button"
              className="button small"
              onClick={() => account.send({ type: 'CHANGE_EMAIL' })}
            >
              <T>Use another email address</T>
            </button>
          </p>
          <TextField
            label="One-time code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            {...field('otp')}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            {...field('password')}
          />
          <FormError message={formError} />
          <button type="submit" className="button primary" disabled={step === 'resetting'}>
            <T>Set new password</T>
          </button>
        </form>
      ) : (
        <form className="form" noValidate onSubmit={sendCode}>
          <p>
            <T>Enter the email address of your account. We will email you a code to choose a new password.</T>
          </p>
          <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
          <FormError message={formError} />
          <span className="form-buttons">
            <button type="submit" className="button primary" disabled={step === 'sendingCode'}>
              <T>Send code</T>
            </button>
            <button type="button" className="button" onClick={enterCode} disabled={step === 'sendingCode'}>
              <T>I already have a code</T>
            </button>
          </span>
        </form>
      )}
      <p>
        <T>Remembered it?</T> <Link href="/login">{<T>Log in</T>}</Link>
      </p>
    </PageLayout>
  );
}
