import { useState } from 'react';
import type { MessageFile } from '../../../machines/messageTree';
import { useWorkspace } from '../../app/useWorkspace';
import { Icon } from '../../components/Icon';
import { textDir } from '../../i18n/bidi';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { fileIcon } from '../attachments/fileIcon';
import { ImageDialog } from './ImageDialog';
import { useFilePicture } from './useFilePicture';

/** A picture's thumbnail, a button that opens it larger. */
function Thumbnail({ file, onOpen }: { file: MessageFile; onOpen: () => void }) {
  const t = useT();
  const picture = useFilePicture(file._id, 'thumbnail');
  return (
    <button
      type="button"
      className="file-thumbnail"
      aria-label={`${t('Open')} ${file.name}`}
      onClick={onOpen}
    >
      {picture.url ? <img src={picture.url} alt="" /> : <Icon name="image" />}
    </button>
  );
}

/**
 * The files a message carries (a user's attachments, a reply's generated images, named by `label`): pictures as thumbnails that open larger, other files as chips that
 * download, and those deleted since as removed.
 */
export function MessageFiles({ files, label }: { files: MessageFile[]; label: string }) {
  const t = useT();
  const format = useFormat();
  const { files: access } = useWorkspace();
  const [open, setOpen] = useState<MessageFile | null>(null);
  const download = (file: MessageFile) => void access.download(file).catch(() => {});
  return (
    <>
      <ul className="message-files" aria-label={t(label)}>
        {files.map((file) => (
          <li key={file._id} className={`message-file${file.removed ? ' removed' : ''}`}>
            {file.removed ? (
              <span className="file-chip">
                <Icon name={fileIcon(file.type)} />
                <span className="attachment-name" dir={textDir(file.name)}>
                  {file.name}
                </span>
                <span className="file-removed">
                  <T>Removed</T>
                </span>
              </span>
            ) : file.type.startsWith('image/') ? (
              <Thumbnail file={file} onOpen={() => setOpen(file)} />
            ) : (
              <button type="button" className="file-chip" onClick={() => download(file)}>
                <Icon name={fileIcon(file.type)} />
                {/* Its name says what it does and contains what it shows: download, name, size. */}
                <span className="visually-hidden">{t('Download')} </span>
                <span className="attachment-name" dir={textDir(file.name)}>
                  {file.name}
                </span>
                <span className="attachment-size">{format.bytes(file.size)}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {open && <ImageDialog file={open} onDownload={() => download(open)} onClose={() => setOpen(null)} />}
    </>
  );
}
