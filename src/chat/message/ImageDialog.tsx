import type { MessageFile } from '../../../machines/messageTree';
import { Dialog } from '../../components/Dialog';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { useFilePicture } from './useFilePicture';

/** An attached picture at full size, titled with its name; Escape or Close shuts it, focus goes back. */
export function ImageDialog({
  file,
  onDownload,
  onClose,
}: {
  file: MessageFile;
  onDownload: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const picture = useFilePicture(file._id, 'full');
  return (
    <Dialog title={file.name} titleIsName role="dialog" className="image-dialog" onClose={onClose}>
      <div className="image-frame">
        {picture.url ? (
          <img src={picture.url} alt={file.name} />
        ) : (
          <p role="status">{t(picture.failed ? 'The picture could not be loaded.' : 'Loading…')}</p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDownload}>
          <T>Download</T>
        </button>
        <button type="button" className="button primary" onClick={onClose}>
          <T>Close</T>
        </button>
      </div>
    </Dialog>
  );
}
