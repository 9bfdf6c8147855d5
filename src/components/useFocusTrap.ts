import { type KeyboardEvent, type RefObject, useEffect } from 'react';
import { focusIsLost, focusMainHeading } from './focusMainHeading';

// `:disabled`, not `[disabled]`: a control in a disabled fieldset (the Share dialog's choices while it
// loads) has no attribute of its own, and focusing it does nothing.
const focusable =
  'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

interface FocusTrapOptions {
  /** Whether the trap holds now (a drawer traps focus only while it is open). */
  active: boolean;
  /** Escape asks to close. */
  onEscape: () => void;
  /** Where focus goes back when the trap ends; by default, wherever it was when it began. */
  returnFocus?: RefObject<HTMLElement | null>;
}

/**
 * Keeps keyboard focus inside `box` while active, as a modal needs: focus moves into it, Tab and
 * Shift+Tab cycle within it, Escape closes it, and focus goes back afterwards (or to the main heading
 * when what had it is gone). Returns the key handler.
 */
export function useFocusTrap(
  box: RefObject<HTMLElement | null>,
  { active, onEscape, returnFocus }: FocusTrapOptions,
) {
  useEffect(() => {
    if (!active) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const element = box.current;
    element?.querySelector<HTMLElement>(focusable)?.focus();
    // A control disabled while it has focus (Delete while deleting) drops focus on the page, out of
    // reach of Escape and Tab: it comes back to the first control inside.
    const keepInside = (event: FocusEvent) => {
      if (event.relatedTarget !== null) return;
      setTimeout(() => {
        if (document.activeElement === document.body) element?.querySelector<HTMLElement>(focusable)?.focus();
      });
    };
    element?.addEventListener('focusout', keepInside);
    return () => {
      element?.removeEventListener('focusout', keepInside);
      // Back where it was; if that is gone (a deleted row, a disabled button), to the main heading.
      (returnFocus?.current ?? previouslyFocused)?.focus?.();
      if (focusIsLost()) focusMainHeading();
    };
  }, [active, box, returnFocus]);

  return (event: KeyboardEvent) => {
    if (!active) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onEscape();
    }
    if (event.key !== 'Tab') return;
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
}
