import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { SsoDraft, SsoField } from '../../../machines/ssoSettings';
import { FormError } from '../../components/FormError';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { CheckboxField } from '../fields/CheckboxField';
import { ListProblem } from '../ListProblem';
import { useAdmin } from '../useAdmin';
import { useFocusFirstProblem } from '../useFocusFirstProblem';
import { SsoApiKeys } from './SsoApiKeys';

/**
 * Sign-in with the organization's identity provider (OpenID Connect), for owners: issuer, client,
 * scopes, the claims read, the button's label and whether passwords are still allowed. The secret is
 * write-only: the server sends back a mask, and an empty field keeps what is stored.
 */
export function SsoScreen() {
  const { sso } = useAdmin();
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const offButton = useRef<HTMLButtonElement>(null);
  const [attempt, setAttempt] = useState(0);
  const { settings, draft, problems, loadError, done } = useSelector(sso, (snapshot) => snapshot.context);
  // The state, or the form's state once it is shown.
  const state = useSelector(sso, (snapshot) =>
    typeof snapshot.value === 'string' ? snapshot.value : snapshot.value.ready,
  );
  const busy = state === 'saving' || state === 'turningOff' || state === 'revokingKeys';
  useFocusFirstProblem(formRef, attempt, busy);

  useEffect(() => {
    sso.send({ type: 'LOAD' });
  }, [sso]);

  const change = (values: Partial<SsoDraft>) => sso.send({ type: 'CHANGE', values });
  const problemOf = (field: SsoField) => problems.find((problem) => problem.field === field)?.message;
  const formProblem = problems.find((problem) => problem.field === null)?.message ?? null;
  const text = (field: Exclude<keyof SsoDraft, 'required'>) => ({
    name: field,
    value: draft[field],
    error: problemOf(field),
    onChange: (event: { target: { value: string } }) => change({ [field]: event.target.value }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    sso.send({ type: 'SAVE' });
    setAttempt((count) => count + 1);
  };

  const heading = (
    <h1 id="admin-sso">
      <T>Sign-in</T>
    </h1>
  );
  if (state === 'idle' || state === 'loading' || state === 'failed')
    return (
      <section aria-labelledby="admin-sso">
        {heading}
        {state !== 'failed' ? (
          <Loading />
        ) : (
          <ListProblem error={loadError} onRetry={() => sso.send({ type: 'RETRY' })} />
        )}
      </section>
    );

  const callback = `${window.location.origin}/auth/oidc/callback`;
  return (
    <section aria-labelledby="admin-sso">
      {heading}
      <p className="lead">
        <T>Members can sign in with your company's identity provider (OpenID Connect).</T>
      </p>
      <p>
        {t('Redirect URI to register with the identity provider')}: <code>{callback}</code>
      </p>
      <form ref={formRef} className="form admin-form" noValidate onSubmit={submit}>
        <fieldset disabled={busy}>
          <legend className="visually-hidden">{t('Sign-in')}</legend>
          <TextField
            label="Issuer URL"
            type="url"
            placeholder="https://login.example.com"
            autoComplete="off"
            {...text('issuer')}
          />
          <TextField label="Client ID" autoComplete="off" {...text('clientId')} />
          <TextField
            label="Client secret"
            type="password"
            autoComplete="new-password"
            placeholder={settings?.clientSecret || undefined}
            hint={
              settings?.clientSecret
                ? 'A secret is stored: leave this empty to keep it.'
                : 'Leave this empty for a public client.'
            }
            {...text('clientSecret')}
          />
          <TextField label="Scopes" hint="Separated by spaces; openid is needed." {...text('scopes')} />
          <fieldset className="field" aria-describedby={problemOf('claims') ? 'sso-claims-error' : undefined}>
            <legend>{t('Claims')}</legend>
            <TextField label="Email claim" autoComplete="off" {...text('emailClaim')} />
            <TextField label="Name claim" autoComplete="off" {...text('nameClaim')} />
            <TextField
              label="Groups claim"
              autoComplete="off"
              hint="Optional: members join the groups mapped to these names."
              {...text('groupsClaim')}
            />
            {problemOf('claims') && (
              <p id="sso-claims-error" className="field-error">
                {t(problemOf('claims') ?? '')}
              </p>
            )}
          </fieldset>
          <TextField
            label="Button label"
            maxLength={80}
            hint="Shown on the login screen as “Continue with …”."
            {...text('label')}
          />
          <CheckboxField
            label="SSO required"
            hint="Members cannot log in with a password; owners still can."
            checked={draft.required}
            onChange={(event) => change({ required: event.target.checked })}
          />
          {problemOf('required') && <p className="field-error">{t(problemOf('required') ?? '')}</p>}
        </fieldset>
        <FormError message={formProblem} />
        <div className="actions">
          <button type="submit" className="button primary" disabled={busy}>
            <T>Save</T>
          </button>
          {settings && (
            <button
              ref={offButton}
              type="button"
              className="button danger"
              disabled={busy}
              onClick={() => sso.send({ type: 'ASK_TURN_OFF' })}
            >
              <T>Turn off SSO</T>
            </button>
          )}
        </div>
        <Status message={done === 'save' ? 'Saved' : done === 'off' ? 'SSO is off.' : null} />
      </form>
      <SsoApiKeys />
      {(state === 'confirmingOff' || state === 'turningOff') && settings && (
        <ConfirmDialog
          title="Turn off SSO"
          message="Members log in with their passwords again. The settings are deleted."
          name={settings.label}
          confirm="Turn off SSO"
          busy={state === 'turningOff'}
          error={null}
          onConfirm={() => sso.send({ type: 'TURN_OFF' })}
          onCancel={() => sso.send({ type: 'CANCEL' })}
          returnFocus={offButton}
        />
      )}
    </section>
  );
}
