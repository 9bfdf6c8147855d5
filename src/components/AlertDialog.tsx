import { useId } from 'react';
import { T } from '../i18n/T';
import { Dialog } from './Dialog';

interface AlertDialogProps {
  title: string;
  message: string;
  onClose: () => void;
}

/** The spec's error alert (seed-spec §8): a modal dialog with a title, the message and an OK button. */
export function AlertDialog({ title, message, onClose }: AlertDialogProps) {
  const messageId = useId();
  return (
    <Dialog title={title} describedBy={messageId} onClose={onClose}>
      <p id={messageId}>
        <T>{message}</T>
      </p>
      <button type="button" className="button primary" onClick={onClose}>
        <T>OK</T>
      </button>
    </Dialog>
  );
}
