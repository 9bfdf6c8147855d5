import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
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
import {
  type SsoDraft,
  type SsoField,
  type SsoProblem,
  ssoDraftOf,
  ssoProblems,
  ssoRequest,
} from './ssoForm';

const claimFields = ['emailClaim', 'nameClaim', 'groupsClaim'];

/** The fields the server names in its refusals, as the form's. */
const serverFields: Record<string, SsoField> = {
  issuer: 'issuer',
  clientId: 'clientId',
  clientSecret: 'clientSecret',
  scopes: 'scopes',
  claims: 'claims',
  email: 'emailClaim',
  name: 'nameClaim',
  groups: 'groupsClaim',
  label: 'label',
  required: 'required',
};

/**
 * Sign-in with the organization's identity provider (OpenID Connect), for owners: issuer, client,
 * scopes, the claims read, the button's label and whether passwords are still allowed. The secret is
 * write-only: the server sends back a mask, and an empty field keeps what is stored. Behind the
 * machine of server data shown on screen (`resource`): the form is the screen's until it is saved.
 */
export function SsoScreen() {
  const { sso } = useAdmin();
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const { data, error, errorField } = useSelector(sso, (snapshot) => snapshot.context);
  // The settings read again after a change are still being saved: the form (and what it holds) stays.
  const state = useSelector(sso, (snapshot) =>
    snapshot.matches('changing') || (snapshot.matches('loading') && snapshot.context.data !== null)
      ? 'saving'
      : snapshot.matches('loaded')
        ? 'ready'
        : snapshot.matches('failed')
          ? 'failed'
          : 'loading',
  );
  const [draft, setDraft] = useState<SsoDraft>(() => ssoDraftOf(data ?? null));
  const [problems, setProblems] = useState<SsoProblem[]>([]);
  /** What was last sent, announced once the server has taken it. */
  const [sent, setSent] = useState<'save' | 'off' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const offButton = useRef<HTMLButtonElement>(null);
  useFocusFirstProblem(formRef, attempt, state === 'saving' || (sent !== null && state !== 'ready'));

  useEffect(() => {
    sso.send({ type: 'LOAD' });
  }, [sso]);
  // The settings as stored, each time the server answers them (after a save, the secret field empties).
  useEffect(() => {
    setDraft(ssoDraftOf(data ?? null));
  }, [data]);
  // The server's refusal, at the field it names.
  useEffect(() => {
    if (state !== 'ready' || !error || sent === null) return;
    const field = errorField ? (serverFields[errorField] ?? null) : null;
    setProblems([{ field, message: error }]);
    setSent(null);
    setConfirming(false);
  }, [state, error, errorField, sent]);
  useEffect(() => {
    if (state === 'ready' && !error && sent !== null) setConfirming(false);
  }, [state, error, sent]);

  const change = (values: Partial<SsoDraft>) => {
    setDraft((current) => ({ ...current, ...values }));
    const fields = Object.keys(values);
    setProblems((current) =>
      current.filter(
        (problem) =>
          problem.field !== null &&
          !fields.includes(problem.field) &&
          !(problem.field === 'claims' && fields.some((field) => claimFields.includes(field))),
      ),
    );
    setSent(null);
  };
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
    setAttempt((count) => count + 1);
    const found = ssoProblems(draft);
    setProblems(found);
    if (found.length > 0) return;
    setSent('save');
    sso.send({ type: 'CHANGE', change: ssoRequest(draft) });
  };
  const turnOff = () => {
    setProblems([]);
    setSent('off');
    sso.send({ type: 'CHANGE', change: null });
  };

  const heading = (
    <h1 id="admin-sso">
      <T>Sign-in</T>
    </h1>
  );
  if (state === 'loading' || state === 'failed')
    return (
      <section aria-labelledby="admin-sso">
        {heading}
        {state === 'loading' ? (
          <Loading />
        ) : (
          <ListProblem error={error} onRetry={() => sso.send({ type: 'RELOAD' })} />
        )}
      </section>
    );

  const saving = state === 'saving';
  const done = state === 'ready' && !error && sent !== null;
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
        <fieldset disabled={saving}>
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
            placeholder={data?.clientSecret || undefined}
            hint={
              data?.clientSecret
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
          <button type="submit" className="button primary" disabled={saving}>
            <T>Save</T>
          </button>
          {data && (
            <button
              ref={offButton}
              type="button"
              className="button danger"
              disabled={saving}
              onClick={() => setConfirming(true)}
            >
              <T>Turn off SSO</T>
            </button>
          )}
        </div>
        <Status message={done ? (sent === 'off' ? 'SSO is off.' : 'Saved') : null} />
      </form>
      <SsoApiKeys />
      {confirming && data && (
        <ConfirmDialog
          title="Turn off SSO"
          message="Members log in with their passwords again. The settings are deleted."
          name={data.label}
          confirm="Turn off SSO"
          busy={saving}
          error={null}
          onConfirm={turnOff}
          onCancel={() => setConfirming(false)}
          returnFocus={offButton}
        />
      )}
    </section>
  );
}
