import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
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
  const { data, error } = useSelector(sso, (snapshot) => snapshot.context);
  const ready = useSelector(sso, (snapshot) => snapshot.matches('loaded'));
  const [confirming, setConfirming] = useState(false);
  const [sent, setSent] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Closed once the keys are revoked and counted again; a refusal stays in the dialog.
  useEffect(() => {
    if (ready && sent && !error) setConfirming(false);
  }, [ready, sent, error]);

  if (!data?.required) return null;
  const revoke = () => {
    setSent(true);
    sso.send({ type: 'CHANGE', change: { revokeApiKeys: true } });
  };
  return (
    <section aria-labelledby="sso-api-keys">
      <h2 id="sso-api-keys">
        <T>Members' API keys</T>
      </h2>
      <p>
        <T>API keys of members and admins that still work:</T> <strong>{data.memberApiKeys}</strong>
      </p>
      {data.memberApiKeys > 0 && (
        <button
          ref={button}
          type="button"
          className="button danger"
          disabled={!ready}
          onClick={() => {
            setSent(false);
            setConfirming(true);
          }}
        >
          <T>Revoke all members' API keys</T>
        </button>
      )}
      <Status message={sent && ready && !error && !confirming ? 'Their API keys are revoked.' : null} />
      {confirming && (
        <ConfirmDialog
          title="Revoke all members' API keys"
          message="Every API key of a member or admin stops working at once. Owners keep theirs."
          name={data.label}
          confirm="Revoke all members' API keys"
          busy={!ready}
          error={sent && ready ? error : null}
          onConfirm={revoke}
          onCancel={() => setConfirming(false)}
          returnFocus={button}
        />
      )}
    </section>
  );
}
