import { useEffect, useId, useRef } from 'react';
import { T } from '../i18n/T';

interface AlertDialogProps {
  title: string;
  message: string;
  onClose: () => void;
}

/** The spec's error alert (seed-spec §8): a modal dialog with a title, the message and an OK button. */
export function AlertDialog({ title, message, onClose }: AlertDialogProps) {
  const titleId = useId();
  const messageId = useId();
  const okButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    okButton.current?.focus();
    return () => previouslyFocused?.focus?.();
  }, []);

  return (
    <div className="dialog-backdrop">
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
          // One button: keep keyboard focus inside the dialog.
          if (event.key === 'Tab') {
            event.preventDefault();
            okButton.current?.focus();
          }
        }}
      >
        <h2 id={titleId}>
          <T>{title}</T>
        </h2>
        <p id={messageId}>
          <T>{message}</T>
        </p>
        <button ref={okButton} type="button" className="button primary" onClick={onClose}>
          <T>OK</T>
        </button>
      </div>
    </div>
  );
}
