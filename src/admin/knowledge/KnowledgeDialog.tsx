import { type FormEvent, useRef, useState } from 'react';
import type { AdminProblem } from '../../../machines/adminList';
import type { KnowledgeBaseRecord } from '../../../machines/knowledgeBase';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { useFormFields } from '../../forms/useFormFields';
import { TextAreaField } from '../fields/TextAreaField';
import { useFocusFirstProblem } from '../useFocusFirstProblem';

interface KnowledgeDialogProps {
  /** The base being renamed or described again; null for a new one. */
  base: KnowledgeBaseRecord | null;
  saving: boolean;
  problem: AdminProblem | null;
  onSave: (values: { name: string; description: string }) => void;
  onCancel: () => void;
}

/** A knowledge base's name (required, next to its field) and description. */
export function KnowledgeDialog({ base, saving, problem, onSave, onCancel }: KnowledgeDialogProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstProblem(formRef, attempt, saving);
  const { values, field, validate, formError } = useFormFields(
    { name: base?.name ?? '', description: base?.description ?? '' },
    { name: 'Enter a name.' },
    problem,
  );
  const description = field('description');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    if (!validate()) return;
    onSave({ name: values.name.trim(), description: values.description.trim() });
  };

  return (
    <Dialog title={base ? 'Edit knowledge base' : 'New knowledge base'} role="dialog" onClose={onCancel}>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField label="Name" maxLength={80} autoComplete="off" {...field('name')} />
        <TextAreaField
          label="Description"
          rows={3}
          maxLength={2000}
          hint="What the documents are about, for the admins choosing bases for a bot."
          value={description.value}
          error={description.error}
          onChange={description.onChange}
        />
        <FormError message={formError} />
        <DialogActions onCancel={onCancel} busy={saving} />
      </form>
    </Dialog>
  );
}
