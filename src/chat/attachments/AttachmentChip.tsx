import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { attachmentMachine } from '../../../machines/attachment';
import type { AttachmentEntry } from '../../../machines/attachments';
import { Icon } from '../../components/Icon';
import { textDir } from '../../i18n/bidi';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { fileIcon } from './fileIcon';

type Attachment = ActorRefFrom<typeof attachmentMachine>;

/**
 * One file of the message being written: its kind, name and size; how far its upload got; the
 * server's reason when it failed, with Retry; and Remove.
 */
export function AttachmentChip({ entry, onRemove }: { entry: AttachmentEntry; onRemove: () => void }) {
  const t = useT();
  const format = useFormat();
  const attachment = entry.ref as Attachment;
  const progress = useSelector(attachment, (snapshot) => snapshot.context.progress);
  const error = useSelector(attachment, (snapshot) => snapshot.context.error);
  return (
    <li className={`attachment-chip ${entry.status}`} data-status={entry.status}>
      <Icon name={fileIcon(entry.type)} />
      <span className="attachment-name" dir={textDir(entry.name)}>
        {entry.name}
      </span>
      <span className="attachment-size">{format.bytes(entry.size)}</span>
      {entry.status === 'uploading' && (
        <progress
          className="attachment-progress"
          max={1}
          value={progress}
          aria-label={`${t('Uploading')} ${entry.name}`}
        >
          {format.percent(progress)}
        </progress>
      )}
      {entry.status === 'uploadFailed' && (
        <>
          <span className="attachment-error" role="alert">
            {t(error?.message ?? 'Something went wrong')}
          </span>
          <button
            type="button"
            className="button small"
            aria-label={`${t('Retry')} ${entry.name}`}
            onClick={() => attachment.send({ type: 'RETRY' })}
          >
            <T>Retry</T>
          </button>
        </>
      )}
      <button
        type="button"
        className="icon-button attachment-remove"
        aria-label={`${t('Remove')} ${entry.name}`}
        title={t('Remove')}
        onClick={onRemove}
      >
        <Icon name="close" />
      </button>
    </li>
  );
}
