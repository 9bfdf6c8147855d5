import { useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { chatModelMachine } from '../../../machines/chatModel';
import { useBilling } from '../../home/useBilling';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { modelPrice } from './modelPrice';
import './model.css';

interface ModelPickerProps {
  tuning: ActorRefFrom<typeof chatModelMachine>;
  /** The bot's models, its default first. */
  models: { _id: string; name: string }[];
}

/**
 * The conversation's model, in the chat's bar: each of the bot's models with its price. The choice is
 * the conversation's: its next replies are written, and priced, by it.
 */
export function ModelPicker({ tuning, models }: ModelPickerProps) {
  const t = useT();
  const id = useId();
  const format = useFormat();
  const currency = useBilling().billing?.currency ?? 'EUR';
  const { model, picked, prices, error } = useSelector(tuning, (snapshot) => snapshot.context);
  const choosing = useSelector(tuning, (snapshot) => snapshot.matches({ choice: 'choosing' }));
  useEffect(() => {
    tuning.send({ type: 'LOAD_PRICES' });
  }, [tuning]);

  const label = (option: { _id: string; name: string }) => {
    const priced = prices.find((known) => known._id === option._id);
    return priced ? `${option.name} · ${modelPrice(priced, currency, format, t)}` : option.name;
  };
  return (
    <div className="chat-model">
      <label htmlFor={id}>{t('Model')}</label>
      <select
        id={id}
        value={picked ?? model ?? models[0]?._id}
        disabled={choosing}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => tuning.send({ type: 'CHOOSE', model: event.target.value })}
      >
        {models.map((option) => (
          <option key={option._id} value={option._id}>
            {label(option)}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {t(error)}
        </p>
      )}
    </div>
  );
}
