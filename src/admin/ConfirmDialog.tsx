import { type ReactNode, type RefObject, useId } from 'react';
import { Dialog } from '../components/Dialog';
import { FormError } from '../components/FormError';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

interface ConfirmDialogProps {
  title: string;
  /** What happens, in a sentence; `name` is what it happens to. */
  message: string;
  name: string;
  confirm: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  returnFocus?: RefObject<HTMLElement | null>;
  /** More about what happens (names of what it affects), after the sentence. */
  children?: ReactNode;
}

/** Asks before something is removed or retired; Cancel or Escape keeps it. */
export function ConfirmDialog({
  title,
  message,
  name,
  confirm,
  busy,
  error,
  onConfirm,
  onCancel,
  returnFocus,
  children,
}: ConfirmDialogProps) {
  const t = useT();
  const descriptionId = useId();
  return (
    <Dialog title={title} describedBy={descriptionId} onClose={onCancel} returnFocus={returnFocus}>
      <p id={descriptionId}>
        <strong>
          <bdi>{name}</bdi>
        </strong>
        : {t(message)}
      </p>
      {children}
      <FormError message={error} />
      <div className="actions">
        <button type="button" className="button" onClick={onCancel}>
          <T>Cancel</T>
        </button>
        <button type="button" className="button danger primary" disabled={busy} onClick={onConfirm}>
          {t(confirm)}
        </button>
      </div>
    </Dialog>
  );
}
