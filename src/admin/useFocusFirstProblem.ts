import { type RefObject, useEffect } from 'react';
import { focusIsLost } from '../components/focusMainHeading';

/**
 * After a submission the form refused, focus goes to its first field with a problem, so a screen
 * reader reads the field and its message and the keyboard is where the fix is. `attempt` counts the
 * submissions: typing never moves the focus. A form `busy` with the server (its submit button
 * disabled) is looked at again once answered: the server's problems are focused the same way, and
 * focus lost with the disabled button goes back to it (in a dialog, Escape works again).
 */
export function useFocusFirstProblem(form: RefObject<HTMLElement | null>, attempt: number, busy = false) {
  useEffect(() => {
    if (attempt === 0 || busy) return;
    const problem = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (problem) problem.focus();
    else if (focusIsLost()) form.current?.querySelector<HTMLElement>('[type="submit"]')?.focus();
  }, [form, attempt, busy]);
}
