import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useRef } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { FormError } from '../components/FormError';
import { PageLayout } from '../components/PageLayout';
import { SsoButton } from '../components/SsoButton';
import { TextField } from '../components/TextField';
import { useFormFields } from '../forms/useFormFields';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { useQuery } from '../routing/address';

const required = { email: 'Enter your email address.', password: 'Enter your password.' };

/**
 * Log in with email and password (seed-spec §5), or with the organization's identity provider, whose
 * sign-in comes back here: `?sso=<code>` to exchange, or `?ssoError=<why not>` to show.
 */
export function LoginScreen() {
  const t = useT();
  useDocumentTitle(t('Log in'));
  const { session } = useActors();
  const busy = useSelector(session, (snapshot) => snapshot.hasTag('busy'));
  // A logged-in user has no business here: the session ignores LOGIN and SIGNUP once logged in.
  const loggedIn = useSelector(session, (snapshot) => snapshot.matches({ auth: 'loggedIn' }));
  const { values, field, validate } = useFormFields({ email: '', password: '' }, required);
  const search = useQuery();
  const ssoCode = search.get('sso');
  const ssoError = search.get('ssoError');
  const ssoReturnUrl = search.get('returnUrl');
  const [, navigate] = useLocation();
  const exchanged = useRef<string | null>(null);
  useEffect(() => {
    if (!ssoCode || exchanged.current === ssoCode) return;
    // Once: the code is single-use, and it leaves the address bar and the history at once.
    exchanged.current = ssoCode;
    navigate('/login', { replace: true });
    session.send({ type: 'SSO_CODE', code: ssoCode, returnUrl: ssoReturnUrl });
  }, [ssoCode, ssoReturnUrl, session, navigate]);

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
      <FormError message={ssoError} />
      <SsoButton />
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
