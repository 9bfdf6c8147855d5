import { type FormEvent, useRef, useState } from 'react';
import type { AdminProblem, ModelRecord, ModelRequest } from '../../../machines/adminList';
import { contextTokenRange, defaultContextTokens } from '../../../machines/botEditor';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { useFormFields } from '../../forms/useFormFields';
import { CheckboxField } from '../fields/CheckboxField';
import { SelectField } from '../fields/SelectField';
import { useFocusFirstProblem } from '../useFocusFirstProblem';

interface ModelDialogProps {
  /** The model being edited; null for a new one. */
  model: ModelRecord | null;
  /** The organization's providers it may run on. */
  providers: { _id: string; name: string }[];
  saving: boolean;
  problem: AdminProblem | null;
  onSave: (values: ModelRequest) => void;
  onCancel: () => void;
}

const amount = (value: number | undefined) => (value === undefined ? '' : String(value));
/** A typed amount as a number; null for an empty one, NaN for one that is not 0 or more. */
const typedAmount = (text: string) => {
  const typed = text.trim().replace(',', '.');
  if (typed === '') return null;
  const value = Number(typed);
  return Number.isFinite(value) && value >= 0 ? value : Number.NaN;
};
const amountProblem = 'Enter an amount of 0 or more.';
const tokenProblem = 'Enter a whole number of tokens from 256 to 10,000,000.';

/**
 * A catalogue model: its name, where it runs and the provider's name for it, its prices (per reply,
 * and optionally per million tokens read and written), what it sees and reads, and whether members may
 * build bots on it.
 */
export function ModelDialog({ model, providers, saving, problem, onSave, onCancel }: ModelDialogProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const [provider, setProvider] = useState(model?.provider ?? '');
  const [vision, setVision] = useState(model?.vision ?? false);
  const [memberBots, setMemberBots] = useState(model?.memberBots ?? false);
  useFocusFirstProblem(formRef, attempt, saving);
  const { values, field, validate, formError } = useFormFields(
    {
      name: model?.name ?? '',
      model: model?.model ?? '',
      price: amount(model?.price ?? 0),
      inputPrice: amount(model?.inputPrice),
      outputPrice: amount(model?.outputPrice),
      contextTokens: String(model?.contextTokens ?? defaultContextTokens),
    },
    { name: 'Enter a name.', model: 'Enter the provider’s name for the model.', price: amountProblem },
    problem,
  );
  /** A number field: its own problem until it is typed in again. */
  const numeric = (name: 'price' | 'inputPrice' | 'outputPrice' | 'contextTokens') => {
    const bound = field(name);
    return {
      ...bound,
      inputMode: name === 'contextTokens' ? ('numeric' as const) : ('decimal' as const),
      error: invalid[name] ?? bound.error,
      onChange: (event: { target: { value: string } }) => {
        setInvalid(({ [name]: _, ...rest }) => rest);
        bound.onChange(event);
      },
    };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    const [price, inputPrice, outputPrice] = [values.price, values.inputPrice, values.outputPrice].map(
      typedAmount,
    );
    const contextTokens = Number(values.contextTokens.trim());
    const found: Record<string, string> = {};
    if (Number.isNaN(price)) found.price = amountProblem;
    if (Number.isNaN(inputPrice)) found.inputPrice = amountProblem;
    if (Number.isNaN(outputPrice)) found.outputPrice = amountProblem;
    if (
      !Number.isInteger(contextTokens) ||
      contextTokens < contextTokenRange.min ||
      contextTokens > contextTokenRange.max
    )
      found.contextTokens = tokenProblem;
    setInvalid(found);
    if (!validate() || Object.keys(found).length) return;
    onSave({
      name: values.name.trim(),
      provider: provider || null,
      model: values.model.trim(),
      price: price ?? 0,
      // Left empty: no token price (null clears one saved before).
      inputPrice,
      outputPrice,
      vision,
      contextTokens,
      memberBots,
    });
  };

  return (
    <Dialog title={model ? 'Edit model' : 'Add model'} role="dialog" className="scrolling" onClose={onCancel}>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField label="Name" maxLength={80} hint="What members see." {...field('name')} />
        <SelectField
          label="Provider"
          value={provider}
          onChange={(event) => setProvider(event.target.value)}
          options={[
            { value: '', label: "Server's model server" },
            ...providers.map((item) => ({ value: item._id, label: item.name, raw: true })),
          ]}
        />
        <TextField
          label="Model"
          maxLength={200}
          autoComplete="off"
          hint="The provider’s name for it, such as gpt-4o-mini."
          {...field('model')}
        />
        <TextField label="Price per reply" {...numeric('price')} />
        <TextField
          label="Price per million input tokens"
          hint="Optional: charged on top of the price per reply for what the model reads."
          {...numeric('inputPrice')}
        />
        <TextField
          label="Price per million output tokens"
          hint="Optional: charged on top of the price per reply for what the model writes."
          {...numeric('outputPrice')}
        />
        <TextField label="Context size (tokens)" {...numeric('contextTokens')} />
        <CheckboxField
          label="Sees images"
          checked={vision}
          onChange={(event) => setVision(event.target.checked)}
        />
        <CheckboxField
          label="Members may build bots on it"
          checked={memberBots}
          onChange={(event) => setMemberBots(event.target.checked)}
        />
        <FormError message={formError} />
        <DialogActions onCancel={onCancel} busy={saving} />
      </form>
    </Dialog>
  );
}
