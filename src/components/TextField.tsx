import { type InputHTMLAttributes, useId } from 'react';
import { useT } from '../i18n/useT';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The label is a name someone gave (a prompt's placeholder), shown as it is. */
  raw?: boolean;
  error?: string;
  hint?: string;
}

/** A labelled input whose validation message is announced with it. */
export function TextField({ label, raw, error, hint, ...input }: TextFieldProps) {
  const t = useT();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{raw ? <bdi>{label}</bdi> : t(label)}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint && (
        <p id={hintId} className="field-hint">
          {t(hint)}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {t(error)}
        </p>
      )}
    </div>
  );
}
