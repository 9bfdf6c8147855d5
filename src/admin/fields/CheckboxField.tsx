import { type InputHTMLAttributes, useId } from 'react';
import { useT } from '../../i18n/useT';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
  /** The label is a name someone gave (a category's), shown as it is. */
  raw?: boolean;
  hint?: string;
}

/** A labelled checkbox, its label after it. */
export function CheckboxField({ label, raw, hint, ...input }: CheckboxFieldProps) {
  const t = useT();
  const id = useId();
  return (
    <div className="field checkbox-field">
      <span>
        <input id={id} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...input} />{' '}
        <label htmlFor={id}>{raw ? <bdi>{label}</bdi> : t(label)}</label>
      </span>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {t(hint)}
        </p>
      )}
    </div>
  );
}
