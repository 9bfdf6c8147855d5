import type { ReactNode } from 'react';
import { T } from '../i18n/T';

interface DialogActionsProps {
  onCancel: () => void;
  /** While the form is being sent, its submit button is off (Cancel still closes). */
  busy: boolean;
  /** The submit button's words; Save by default. */
  submit?: ReactNode;
  /** The other button's words; Cancel by default. */
  cancel?: ReactNode;
}

/** A dialog form's Cancel and submit buttons. */
export function DialogActions({
  onCancel,
  busy,
  submit = <T>Save</T>,
  cancel = <T>Cancel</T>,
}: DialogActionsProps) {
  return (
    <div className="actions">
      <button type="button" className="button" onClick={onCancel}>
        {cancel}
      </button>
      <button type="submit" className="button primary" disabled={busy}>
        {submit}
      </button>
    </div>
  );
}
