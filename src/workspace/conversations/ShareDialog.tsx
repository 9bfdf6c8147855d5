import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ShareAudience } from '../../../machines/share';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

const audiences: { value: ShareAudience; label: string; hint: string }[] = [
  {
    value: 'organization',
    label: 'People in my organization',
    hint: 'They open the link after logging in.',
  },
  { value: 'public', label: 'Anyone with the link', hint: 'No login needed to read it.' },
];

/**
 * Shares a conversation: who may open the link, the link with Copy, and Revoke. The link shows the
 * branch on screen as it is now; sharing again updates it and keeps the link.
 */
export function ShareDialog() {
  const { share } = useWorkspace();
  const t = useT();
  const descriptionId = useId();
  const topic = useSelector(share, (snapshot) => snapshot.context.topic);
  const link = useSelector(share, (snapshot) => snapshot.context.share);
  const audience = useSelector(share, (snapshot) => snapshot.context.audience);
  const problem = useSelector(share, (snapshot) => snapshot.context.error);
  const loading = useSelector(share, (snapshot) => snapshot.matches('loading'));
  const busy = useSelector(share, (snapshot) => snapshot.matches('sharing') || snapshot.matches('revoking'));
  const close = () => share.send({ type: 'CLOSE' });
  const url = link ? new URL(link.url, window.location.origin).href : '';

  return (
    <Dialog title="Share conversation" role="dialog" describedBy={descriptionId} onClose={close}>
      <div id={descriptionId}>
        <p>
          <strong>
            <Bdi text={topic?.title ?? ''} />
          </strong>
        </p>
        <p>
          <T>The link shows the conversation as it is now. Later messages appear once you share it again.</T>
        </p>
      </div>
      <fieldset className="share-audience" disabled={loading || busy}>
        <legend>
          <T>Who can open the link</T>
        </legend>
        {audiences.map((choice) => (
          <label key={choice.value} className="choice share-choice">
            <input
              type="radio"
              name="audience"
              value={choice.value}
              checked={audience === choice.value}
              onChange={() => share.send({ type: 'CHOOSE', audience: choice.value })}
            />
            <span>
              <T>{choice.label}</T>
              <span className="field-hint">
                <T>{choice.hint}</T>
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {link && (
        <div className="field share-link">
          <label htmlFor={`${descriptionId}-link`}>
            <T>Link</T>
          </label>
          <div className="share-link-row">
            <input id={`${descriptionId}-link`} type="text" readOnly value={url} dir="ltr" />
            <CopyButton text={url} t={t} what={t('Link')} />
          </div>
        </div>
      )}
      <FormError message={problem} />
      <div className="actions">
        {link && (
          <button
            type="button"
            className="button danger"
            disabled={busy}
            onClick={() => share.send({ type: 'REVOKE' })}
          >
            <T>Revoke link</T>
          </button>
        )}
        <button type="button" className="button" onClick={close}>
          <T>Close</T>
        </button>
        <button
          type="button"
          className="button primary"
          disabled={loading || busy}
          onClick={() => share.send({ type: 'SHARE' })}
        >
          {link ? <T>Update link</T> : <T>Create link</T>}
        </button>
      </div>
    </Dialog>
  );
}
