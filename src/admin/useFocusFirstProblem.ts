import { type RefObject, useEffect } from 'react';

/**
 * After a submission the form refused, focus goes to its first field with a problem, so a screen
 * reader reads the field and its message and the keyboard is where the fix is. `attempt` counts the
 * submissions: typing never moves the focus.
 */
export function useFocusFirstProblem(form: RefObject<HTMLElement | null>, attempt: number) {
  useEffect(() => {
    if (attempt === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, attempt]);
}
