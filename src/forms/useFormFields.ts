import { useState } from 'react';

type Messages<Values> = Partial<Record<keyof Values, string>>;

/**
 * The values of a form's text fields and their inline messages: each required field left blank
 * gets its message when the user submits or asks to validate.
 */
export function useFormFields<Values extends Record<string, string>>(
  initial: Values,
  required: Messages<Values>,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Messages<Values>>({});

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
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  return { values, field, validate };
}
