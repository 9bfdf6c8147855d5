import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { useT } from '../i18n/useT';

interface DialogProps {
  title: string;
  /** The id of the element that says what the dialog is about. */
  describedBy?: string;
  /** Escape closes the dialog as its Cancel or OK button would. */
  onClose: () => void;
  /** Where focus goes back when the dialog closes; by default, wherever it was when it opened. */
  returnFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog that needs an answer now (an error, a destructive confirmation), hence `alertdialog`:
 * titled, focus moved into it on opening and kept inside while it is open, Escape to close, and focus
 * given back on closing.
 */
export function Dialog({ title, describedBy, onClose, returnFocus, children }: DialogProps) {
  const t = useT();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>(focusable)?.focus();
    return () => (returnFocus?.current ?? previouslyFocused)?.focus?.();
  }, [returnFocus]);

  const keepFocusInside = (event: React.KeyboardEvent) => {
    const items = [...(box.current?.querySelectorAll<HTMLElement>(focusable) ?? [])];
    const [first, last] = [items[0], items.at(-1)];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="dialog-backdrop">
      <div
        ref={box}
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onClose();
          }
          if (event.key === 'Tab') keepFocusInside(event);
        }}
      >
        <h2 id={titleId}>{t(title)}</h2>
        {children}
      </div>
    </div>
  );
}
