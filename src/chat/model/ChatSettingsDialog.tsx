import { useSelector } from '@xstate/react';
import { type FormEvent, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { chatModelMachine, ParametersDraft } from '../../../machines/chatModel';
import { useFocusFirstProblem } from '../../admin/useFocusFirstProblem';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';

/**
 * The chat's settings, where its bot allows them: the conversation's temperature and maximum reply
 * length (empty: the model's own). Checked here, then by the server against the model's context.
 */
export function ChatSettingsDialog({ tuning }: { tuning: ActorRefFrom<typeof chatModelMachine> }) {
  const { draft, problems } = useSelector(tuning, (snapshot) => snapshot.context);
  const saving = useSelector(tuning, (snapshot) => snapshot.matches({ settings: 'saving' }));
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstProblem(formRef, attempt, saving);
  const problemOf = (field: keyof ParametersDraft) =>
    problems.find((problem) => problem.field === field)?.message;
  const text = (field: keyof ParametersDraft) => ({
    name: field,
    value: draft[field],
    error: problemOf(field),
    onChange: (event: { target: { value: string } }) =>
      tuning.send({ type: 'CHANGE', values: { [field]: event.target.value } }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    tuning.send({ type: 'SAVE' });
  };
  const cancel = () => tuning.send({ type: 'CANCEL' });

  return (
    <Dialog title="Chat settings" role="dialog" onClose={cancel}>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField
          label="Temperature"
          inputMode="decimal"
          autoComplete="off"
          hint="From 0 to 2; empty for the model's own."
          {...text('temperature')}
        />
        <TextField
          label="Maximum reply length (tokens)"
          inputMode="numeric"
          autoComplete="off"
          hint="Empty for the model's own."
          {...text('maxTokens')}
        />
        <FormError message={problems.find((problem) => problem.field === null)?.message ?? null} />
        <DialogActions onCancel={cancel} busy={saving} />
      </form>
    </Dialog>
  );
}
