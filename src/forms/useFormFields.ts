import { useCallback, useState } from 'react';

type Messages<Values> = Partial<Record<keyof Values, string>>;

/** What the server said about the last submission; `field` names the form field it is about. */
export interface ServerError {
  message: string;
  field?: string;
}

/**
 * The values of a form's text fields and their inline messages: each required field left blank
 * gets its message when the user submits or asks to validate, and the server's error about a field
 * is shown next to that field until the user changes it.
 */
export function useFormFields<Values extends Record<string, string>>(
  initial: Values,
  required: Messages<Values>,
  serverError?: ServerError | null,
) {
  const [initialValues] = useState(initial);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Messages<Values>>({});
  // An error from before the form was shown, or one whose field the user has since edited, is not shown.
  const [dismissed, setDismissed] = useState(serverError);
  const shownError = serverError && serverError !== dismissed ? serverError : null;

  /** Validates the given fields (all required ones by default); true when none is blank. */
  const validate = (names = Object.keys(required) as (keyof Values)[]) => {
    const found: Messages<Values> = {};
    for (const name of names) if (!values[name]?.trim()) found[name] = required[name];
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  /** Props for a `TextField` bound to one value. */
  const field = (name: keyof Values & string) => ({
    name,
    value: values[name],
    error: errors[name] ?? (shownError?.field === name ? shownError.message : undefined),
    onChange: (event: { target: { value: string } }) => {
      if (shownError?.field === name) setDismissed(shownError);
      setValues((current) => ({ ...current, [name]: event.target.value }));
    },
  });

  /** Back to the initial values, e.g. passwords once they have been used. */
  const reset = useCallback(() => setValues(initialValues), [initialValues]);

  /** The server's error when it names no field of this form: the form shows it as a whole. */
  const formError =
    shownError && !(shownError.field && shownError.field in values) ? shownError.message : null;

  return { values, field, validate, reset, formError };
}
