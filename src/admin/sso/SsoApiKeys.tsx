import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { ConfirmDialog } from '../ConfirmDialog';
import { useAdmin } from '../useAdmin';

/**
 * With SSO required, the API keys members and admins made before are a way in around the identity
 * provider: how many still work, and Revoke all (after a confirmation). Owners keep theirs.
 */
export function SsoApiKeys() {
  const { sso } = useAdmin();
  const { settings, keysError, done } = useSelector(sso, (snapshot) => snapshot.context);
  const editing = useSelector(sso, (snapshot) => snapshot.matches({ ready: 'editing' }));
  const asking = useSelector(sso, (snapshot) => snapshot.matches({ ready: 'confirmingRevoke' }));
  const revoking = useSelector(sso, (snapshot) => snapshot.matches({ ready: 'revokingKeys' }));
  const button = useRef<HTMLButtonElement>(null);

  if (!settings?.required) return null;
  return (
    <section aria-labelledby="sso-api-keys">
      <h2 id="sso-api-keys">
        <T>Members' API keys</T>
      </h2>
      <p>
        <T>API keys of members and admins that still work:</T> <strong>{settings.memberApiKeys}</strong>
      </p>
      {settings.memberApiKeys > 0 && (
        <button
          ref={button}
          type="button"
          className="button danger"
          disabled={!editing}
          onClick={() => sso.send({ type: 'ASK_REVOKE_KEYS' })}
        >
          <T>Revoke all members' API keys</T>
        </button>
      )}
      <Status message={done === 'revoke' ? 'Their API keys are revoked.' : null} />
      {(asking || revoking) && (
        <ConfirmDialog
          title="Revoke all members' API keys"
          message="Every API key of a member or admin stops working at once. Owners keep theirs."
          name={settings.label}
          confirm="Revoke all members' API keys"
          busy={revoking}
          error={keysError}
          onConfirm={() => sso.send({ type: 'REVOKE_KEYS' })}
          onCancel={() => sso.send({ type: 'CANCEL' })}
          returnFocus={button}
        />
      )}
    </section>
  );
}
