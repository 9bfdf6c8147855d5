import { type TextareaHTMLAttributes, useId } from 'react';
import { useT } from '../../i18n/useT';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled multi-line text whose validation message is announced with it. */
export function TextAreaField({ label, error, hint, ...area }: TextAreaFieldProps) {
  const t = useT();
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{t(label)}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...area} />
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {t(hint)}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {t(error)}
        </p>
      )}
    </div>
  );
}
