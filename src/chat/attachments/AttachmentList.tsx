import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { type attachmentsMachine, maxAttachments } from '../../../machines/attachments';
import { useT } from '../../i18n/useT';
import { AttachmentChip } from './AttachmentChip';

/** The files of the message being written, as chips, and a word when some could not be added. */
export function AttachmentList({ attachments }: { attachments: ActorRefFrom<typeof attachmentsMachine> }) {
  const t = useT();
  const files = useSelector(attachments, (snapshot) => snapshot.context.files);
  const leftOut = useSelector(attachments, (snapshot) => snapshot.context.leftOut);
  const limit = useSelector(attachments, (snapshot) => snapshot.context.limit);
  if (!files.length && !leftOut) return null;
  return (
    <div className="attachments">
      {files.length > 0 && (
        <ul className="attachment-chips" aria-label={t('Attached files')}>
          {files.map((entry) => (
            <AttachmentChip
              key={entry.key}
              entry={entry}
              onRemove={() => attachments.send({ type: 'REMOVE', key: entry.key })}
            />
          ))}
        </ul>
      )}
      {leftOut > 0 && (
        <p className="attachment-notice" role="alert">
          {limit === maxAttachments
            ? t('At most 10 files can go with one message.')
            : t('A project holds at most {count} files.').replace('{count}', String(limit))}
        </p>
      )}
    </div>
  );
}
