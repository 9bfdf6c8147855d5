import { type TextareaHTMLAttributes, useId } from 'react';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string;
  hint?: string;
  /** Shows "n of max characters" under the text, in the field's description (over the limit: as a problem). */
  counter?: number;
}

/** A labelled multi-line text whose validation message is announced with it. */
export function TextAreaField({ label, error, hint, counter, ...area }: TextAreaFieldProps) {
  const t = useT();
  const format = useFormat();
  const id = useId();
  const counted = counter !== undefined;
  const describedBy =
    [hint && `${id}-hint`, counted && `${id}-counter`, error && `${id}-error`].filter(Boolean).join(' ') ||
    undefined;
  const length = String(area.value ?? '').length;
  return (
    <div className="field">
      <label htmlFor={id}>{t(label)}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...area} />
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {t(hint)}
        </p>
      )}
      {counted && (
        <p id={`${id}-counter`} className={length > counter ? 'field-error' : 'field-hint'}>
          {t('{count} of {max} characters')
            .replace('{count}', format.number(length))
            .replace('{max}', format.number(counter))}
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
