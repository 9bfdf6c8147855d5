import { type RefObject, useId, useState } from 'react';
import { type Prompt, placeholdersOf } from '../../../machines/promptText';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';

/**
 * Asks a value for each placeholder of a prompt, each required, before its text goes in the message
 * box; Cancel or Escape goes back to the list. Focus goes back to `returnFocus` (the message box).
 */
export function PlaceholderDialog({
  prompt,
  missing,
  returnFocus,
  onFill,
  onCancel,
}: {
  prompt: Prompt;
  /** The placeholders left empty when the values were last sent. */
  missing: string[];
  returnFocus: RefObject<HTMLElement | null>;
  onFill: (values: Record<string, string>) => void;
  onCancel: () => void;
}) {
  const descriptionId = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <Dialog
      title="Fill in the prompt"
      role="dialog"
      describedBy={descriptionId}
      returnFocus={returnFocus}
      onClose={onCancel}
    >
      <p id={descriptionId}>
        <code dir="auto">/{prompt.command}</code> <Bdi text={prompt.title} />
      </p>
      <form
        className="form compact"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onFill(values);
        }}
      >
        {placeholdersOf(prompt.text).map((name, index) => (
          <TextField
            key={name}
            label={name}
            raw
            required
            autoFocus={index === 0}
            value={values[name] ?? ''}
            error={missing.includes(name) ? 'Fill this in.' : undefined}
            onChange={(event) => setValues((before) => ({ ...before, [name]: event.target.value }))}
          />
        ))}
        <div className="actions">
          <button type="button" className="button" onClick={onCancel}>
            <T>Cancel</T>
          </button>
          <button type="submit" className="button primary">
            <T>Put in the message box</T>
          </button>
        </div>
      </form>
    </Dialog>
  );
}
