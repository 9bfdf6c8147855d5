import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ApiKey, KeyField } from '../../../machines/apiKeys';
import { maxKeyName } from '../../../machines/apiKeys';
import { ConfirmDialog } from '../../admin/ConfirmDialog';
import { ListProblem } from '../../admin/ListProblem';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { RelativeTime } from '../../components/RelativeTime';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useNow } from '../../i18n/useNow';
import { useT } from '../../i18n/useT';

/** The member's day as `YYYY-MM-DD`, what a date field holds. */
const localDay = (date = new Date()) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * The member's personal API keys in the Profile panel: the keys (name, dates, last four characters),
 * a form to make one (shown once, with Copy), and Revoke with a confirmation. The panel runs its own
 * actor: the keys are read again each time the profile opens, and a new key is gone once it closes.
 */
export function ApiKeysSection() {
  const { apiKeys, inspect } = useWorkspace();
  const actor = useActorRef(apiKeys, { inspect });
  const t = useT();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  const snapshot = useSelector(actor, (state) => state);
  const { keys, problems, newKey, revoking, error, turnedOff } = snapshot.context;
  const [values, setValues] = useState({ name: '', expiresAt: '' });
  const creating = snapshot.matches('creating');

  const problemAt = (field: KeyField) => problems.find((problem) => problem.field === field)?.message;
  const formProblem = problems.find((problem) => problem.field === null)?.message ?? null;
  const field = (name: KeyField) => ({
    name,
    value: values[name],
    error: problemAt(name),
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'CREATE', ...values, today: localDay() });
  };
  // The form is emptied once its key is made: the next one starts afresh.
  useEffect(() => {
    if (newKey) setValues({ name: '', expiresAt: '' });
  }, [newKey]);

  return (
    <section className="panel-section api-keys" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        <T>API keys</T>
      </h3>
      {snapshot.matches('turnedOff') ? (
        <p className="api-keys-off">{t(turnedOff ?? '')}</p>
      ) : (
        <>
          <p className="field-hint">
            <T>Use Parley's bots from any OpenAI client: this base URL and one of your keys.</T>{' '}
            <code dir="ltr">{`${window.location.origin}/v1`}</code>
          </p>
          {snapshot.matches('loading') && (
            <p role="status">
              <T>Loading…</T>
            </p>
          )}
          {snapshot.matches('failed') && (
            <ListProblem error={error} onRetry={() => actor.send({ type: 'RETRY' })} />
          )}
          {snapshot.hasTag('listed') && (
            <KeyList keys={keys} onRevoke={(id) => actor.send({ type: 'ASK_REVOKE', id })} />
          )}
          <form className="form compact" noValidate onSubmit={submit}>
            <TextField label="Name" maxLength={maxKeyName} autoComplete="off" {...field('name')} />
            <TextField
              label="Expires on (optional)"
              type="date"
              min={localDay()}
              hint="Leave it empty for a key that does not expire."
              {...field('expiresAt')}
            />
            <FormError message={formProblem} />
            <button ref={createButton} type="submit" className="button small primary" disabled={creating}>
              {creating ? t('Creating…') : t('Create key')}
            </button>
          </form>
        </>
      )}
      {newKey && (
        <NewKeyDialog
          secret={newKey}
          returnFocus={createButton}
          onClose={() => actor.send({ type: 'DISMISS' })}
        />
      )}
      {revoking && (
        <RevokeDialog
          name={revoking.name}
          busy={snapshot.matches('revoking')}
          error={error}
          heading={heading}
          onConfirm={() => actor.send({ type: 'REVOKE' })}
          onCancel={() => actor.send({ type: 'CANCEL_REVOKE' })}
        />
      )}
    </section>
  );
}

/** The keys, newest first: what each is called, when it was made, expires and was last used. */
function KeyList({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (id: string) => void }) {
  const t = useT();
  const format = useFormat();
  const now = useNow();
  if (keys.length === 0)
    return (
      <p className="empty">
        <T>No API keys yet.</T>
      </p>
    );
  return (
    <ul className="api-key-list">
      {keys.map((key) => {
        const expired = key.expiresAt !== null && new Date(key.expiresAt).getTime() <= now;
        return (
          <li key={key._id} className="api-key">
            <p className="api-key-name">
              <strong>
                <Bdi text={key.name} />
              </strong>{' '}
              <span className="muted" dir="ltr">
                …{key.last4}
              </span>
            </p>
            <dl className="api-key-dates">
              <div>
                <dt>
                  <T>Created</T>
                </dt>
                <dd>
                  <time dateTime={key.createdAt}>{format.dateTime(new Date(key.createdAt))}</time>
                </dd>
              </div>
              <div>
                <dt>{expired ? t('Expired') : t('Expires')}</dt>
                <dd>
                  {key.expiresAt ? (
                    <time dateTime={key.expiresAt}>{format.utcDay(new Date(key.expiresAt))}</time>
                  ) : (
                    t('Never')
                  )}
                </dd>
              </div>
              <div>
                <dt>
                  <T>Last used</T>
                </dt>
                <dd>{key.lastUsedAt ? <RelativeTime iso={key.lastUsedAt} now={now} /> : t('Never')}</dd>
              </div>
            </dl>
            <button
              type="button"
              className="button small danger"
              aria-haspopup="dialog"
              aria-label={`${t('Revoke')} ${key.name}`}
              onClick={() => onRevoke(key._id)}
            >
              <T>Revoke</T>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The key just made, with Copy: the only time it is shown. */
function NewKeyDialog({
  secret,
  returnFocus,
  onClose,
}: {
  secret: string;
  returnFocus: RefObject<HTMLElement | null>;
  onClose: () => void;
}) {
  const t = useT();
  const descriptionId = useId();
  const fieldId = useId();
  return (
    <Dialog title="Your new API key" describedBy={descriptionId} onClose={onClose} returnFocus={returnFocus}>
      <p id={descriptionId}>
        <strong>
          <T>Copy it now: you will not see it again.</T>
        </strong>{' '}
        <T>Keep it secret, like a password. Anyone with it can use Parley's bots on your balance.</T>
      </p>
      <div className="field share-link">
        <label htmlFor={fieldId}>
          <T>API key</T>
        </label>
        <div className="share-link-row api-key-secret">
          <input
            id={fieldId}
            type="text"
            readOnly
            value={secret}
            dir="ltr"
            spellCheck={false}
            onFocus={(event) => event.target.select()}
          />
          <CopyButton text={secret} t={t} what={t('API key')} />
        </div>
      </div>
      <div className="actions">
        <button type="button" className="button primary" onClick={onClose}>
          <T>Done</T>
        </button>
      </div>
    </Dialog>
  );
}

/** Asks before a key is revoked; focus goes back to its Revoke button, or to the section once it is gone. */
function RevokeDialog({
  name,
  busy,
  error,
  heading,
  onConfirm,
  onCancel,
}: {
  name: string;
  busy: boolean;
  error: string | null;
  heading: RefObject<HTMLHeadingElement | null>;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const opener = useRef(document.activeElement as HTMLElement | null);
  const returnFocus = useMemo(
    () => ({
      get current() {
        return opener.current?.isConnected ? opener.current : heading.current;
      },
    }),
    [heading],
  );
  return (
    <ConfirmDialog
      title="Revoke API key"
      message="Programs using this key stop working at once."
      name={name}
      confirm="Revoke"
      busy={busy}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
      returnFocus={returnFocus}
    />
  );
}
