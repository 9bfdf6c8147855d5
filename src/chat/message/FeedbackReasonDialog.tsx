import { type FormEvent, useId, useState } from 'react';
import type { Rating } from '../../../machines/feedback';
import { TextAreaField } from '../../admin/fields/TextAreaField';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';

interface FeedbackReasonDialogProps {
  rating: Rating;
  sending: boolean;
  error: string | null;
  onSend: (reason: string) => void;
  onSkip: () => void;
}

/** After a thumb: why, in the member's words (optional). Escape or Skip keeps the thumb without a reason. */
export default function FeedbackReasonDialog({
  rating,
  sending,
  error,
  onSend,
  onSkip,
}: FeedbackReasonDialogProps) {
  const [reason, setReason] = useState('');
  const note = useId();
  const send = (event: FormEvent) => {
    event.preventDefault();
    onSend(reason);
  };
  return (
    <Dialog
      role="dialog"
      title={rating === 'up' ? 'What was good about this reply?' : 'What went wrong with this reply?'}
      describedBy={note}
      onClose={onSkip}
    >
      <form onSubmit={send}>
        <p id={note} className="muted">
          <T>Optional. Admins see your reason, never your conversation.</T>
        </p>
        <TextAreaField
          label="Reason"
          value={reason}
          maxLength={1000}
          counter={1000}
          rows={4}
          onChange={(event) => setReason(event.target.value)}
        />
        <FormError message={error} />
        <DialogActions
          onCancel={onSkip}
          busy={sending}
          cancel={<T>Skip</T>}
          submit={sending ? <T>Sending…</T> : <T>Send</T>}
        />
      </form>
    </Dialog>
  );
}
