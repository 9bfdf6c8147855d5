import { type FormEvent, useRef, useState } from 'react';
import type { AdminProblem, ProviderRecord } from '../../machines/adminList';
import { Dialog } from '../components/Dialog';
import { DialogActions } from '../components/DialogActions';
import { FormError } from '../components/FormError';
import { TextField } from '../components/TextField';
import { useFormFields } from '../forms/useFormFields';
import { useFocusFirstProblem } from './useFocusFirstProblem';

interface ProviderDialogProps {
  /** The provider being edited; null for a new one. */
  provider: ProviderRecord | null;
  saving: boolean;
  problem: AdminProblem | null;
  onSave: (values: Record<string, string>) => void;
  onCancel: () => void;
}

/** A provider's name, base URL and key; editing, an empty key keeps the stored one. */
export function ProviderDialog({ provider, saving, problem, onSave, onCancel }: ProviderDialogProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstProblem(formRef, attempt, saving);
  const { values, field, validate, formError } = useFormFields(
    { name: provider?.name ?? '', baseUrl: provider?.baseUrl ?? '', apiKey: '' },
    { name: 'Enter a name.', baseUrl: 'Enter the base URL, such as https://api.example.com/v1.' },
    problem,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    if (!validate()) return;
    const { apiKey, ...rest } = values;
    onSave(provider && !apiKey ? rest : values);
  };

  return (
    <Dialog title={provider ? 'Edit provider' : 'Add provider'} role="dialog" onClose={onCancel}>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField label="Name" maxLength={80} {...field('name')} />
        <TextField label="Base URL" type="url" inputMode="url" placeholder="https://" {...field('baseUrl')} />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          hint={provider ? 'Leave empty to keep the saved key.' : undefined}
          {...field('apiKey')}
        />
        <FormError message={formError} />
        <DialogActions onCancel={onCancel} busy={saving} />
      </form>
    </Dialog>
  );
}
