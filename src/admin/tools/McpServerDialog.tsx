import { type FormEvent, useRef, useState } from 'react';
import type { AdminProblem, McpServerRecord } from '../../../machines/adminList';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { useFormFields } from '../../forms/useFormFields';
import { T } from '../../i18n/T';
import { CheckboxField } from '../fields/CheckboxField';
import { useFocusFirstProblem } from '../useFocusFirstProblem';

interface McpServerDialogProps {
  /** The server being edited; null for a new one. */
  server: McpServerRecord | null;
  saving: boolean;
  problem: AdminProblem | null;
  onSave: (values: Record<string, unknown>) => void;
  onCancel: () => void;
}

/**
 * An MCP server's name, URL and token. The token is written, never shown: editing, an empty token
 * keeps the saved one, and a box removes it. Saving connects and reads the server's tools first.
 */
export function McpServerDialog({ server, saving, problem, onSave, onCancel }: McpServerDialogProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [removeToken, setRemoveToken] = useState(false);
  useFocusFirstProblem(formRef, attempt, saving);
  const { values, field, validate, formError } = useFormFields(
    { name: server?.name ?? '', url: server?.url ?? '', token: '' },
    {
      name: 'Enter a name.',
      url: 'Enter the address of the MCP server, such as https://tools.example.com/mcp.',
    },
    problem,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    if (!validate()) return;
    const { token, ...rest } = values;
    const written = token.trim();
    if (!server) onSave(written ? values : rest);
    else onSave(removeToken ? { ...rest, token: null } : written ? { ...rest, token: written } : rest);
  };

  return (
    <Dialog title={server ? 'Edit MCP server' : 'Add MCP server'} role="dialog" onClose={onCancel}>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField
          label="Name"
          maxLength={80}
          hint="Its tools are named after it, such as name__tool."
          {...field('name')}
        />
        <TextField
          label="URL"
          type="url"
          inputMode="url"
          placeholder="https://"
          hint="Its Streamable HTTP endpoint."
          {...field('url')}
        />
        <TextField
          label="Token"
          type="password"
          autoComplete="off"
          disabled={removeToken}
          hint={
            server?.token
              ? 'Optional. Sent as a bearer token. Leave empty to keep the saved token.'
              : 'Optional. Sent as a bearer token; stored encrypted and never shown again.'
          }
          {...field('token')}
        />
        {server?.token && (
          <CheckboxField
            label="Remove the saved token"
            checked={removeToken}
            onChange={(event) => setRemoveToken(event.target.checked)}
          />
        )}
        <FormError message={formError} />
        {saving && (
          <p className="field-hint" role="status">
            <T>Connecting and reading its tools…</T>
          </p>
        )}
        <DialogActions onCancel={onCancel} busy={saving} />
      </form>
    </Dialog>
  );
}
