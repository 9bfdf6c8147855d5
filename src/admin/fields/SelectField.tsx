import { type SelectHTMLAttributes, useId } from 'react';
import { useT } from '../../i18n/useT';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  /** The choices: their values, and the labels shown (translated, unless `raw`: a name someone gave). */
  options: { value: string; label: string; raw?: boolean }[];
  error?: string;
  hint?: string;
}

/** A labelled select whose validation message is announced with it. */
export function SelectField({ label, options, error, hint, ...select }: SelectFieldProps) {
  const t = useT();
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{t(label)}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.raw ? option.label : t(option.label)}
          </option>
        ))}
      </select>
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
