import { type ReactNode, type RefObject, useId, useRef } from 'react';
import { useT } from '../i18n/useT';
import { useFocusTrap } from './useFocusTrap';

interface DialogProps {
  title: string;
  /** The id of the element that says what the dialog is about. */
  describedBy?: string;
  /** Escape closes the dialog as its Cancel or OK button would. */
  onClose: () => void;
  /** Where focus goes back when the dialog closes; by default, wherever it was when it opened. */
  returnFocus?: RefObject<HTMLElement | null>;
  /** `alertdialog` (the default) needs an answer now: an error, a destructive confirmation; a form is a `dialog`. */
  role?: 'alertdialog' | 'dialog';
  /** The title is UI text to translate (the default), or a name shown as it is (a file's). */
  titleIsName?: boolean;
  /** A class for the box beside `dialog`, e.g. a wider one for a picture. */
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog: titled, focus moved into it on opening and kept inside while it is open, Escape to
 * close, and focus given back on closing.
 */
export function Dialog({
  title,
  describedBy,
  onClose,
  returnFocus,
  role = 'alertdialog',
  titleIsName = false,
  className,
  children,
}: DialogProps) {
  const t = useT();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const onKeyDown = useFocusTrap(box, { active: true, onEscape: onClose, returnFocus });

  return (
    <div className="dialog-backdrop">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: its role, alertdialog or dialog, takes keys */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: both of its roles are modal */}
      <div
        ref={box}
        className={className ? `dialog ${className}` : 'dialog'}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{titleIsName ? title : t(title)}</h2>
        {children}
      </div>
    </div>
  );
}
