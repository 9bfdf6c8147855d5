import { useId } from 'react';
import type { BotChoice } from '../../../machines/botEditor';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

interface ModelsFieldProps {
  /** The organization's model catalogue. */
  catalogue: BotChoice[];
  /** The models the bot offers, in order: the first is the default. */
  chosen: string[];
  problem?: string;
  onChange: (models: string[]) => void;
}

/**
 * The catalogue models a model bot offers: a box per model, the chosen ones first in their order, each
 * but the first with "Move up" (the first is the default a conversation starts on).
 */
export function ModelsField({ catalogue, chosen, problem, onChange }: ModelsFieldProps) {
  const t = useT();
  const id = useId();
  const byId = new Map(catalogue.map((model) => [model._id, model]));
  const ordered = [
    ...chosen.flatMap((modelId) => byId.get(modelId) ?? []),
    ...catalogue.filter((model) => !chosen.includes(model._id)),
  ];
  const moveUp = (index: number) =>
    onChange([...chosen.slice(0, index - 1), chosen[index], chosen[index - 1], ...chosen.slice(index + 1)]);
  return (
    <fieldset
      className="choices"
      aria-describedby={[`${id}-hint`, problem && `${id}-error`].filter(Boolean).join(' ')}
      aria-invalid={problem ? true : undefined}
      tabIndex={problem ? -1 : undefined}
    >
      <legend>{t('Models')}</legend>
      <p id={`${id}-hint`} className="field-hint">
        {t('The first is the default; members may pick another per conversation. None: the model above.')}
      </p>
      {catalogue.length === 0 && (
        <p className="field-hint">
          <T>No models yet. Add them under Models.</T>
        </p>
      )}
      <ul className="tool-choice-list">
        {ordered.map((model) => {
          const index = chosen.indexOf(model._id);
          const boxId = `${id}-${model._id}`;
          return (
            <li key={model._id} className="tool-choice">
              <span>
                <input
                  id={boxId}
                  type="checkbox"
                  checked={index >= 0}
                  onChange={(event) =>
                    onChange(
                      event.target.checked
                        ? [...chosen, model._id]
                        : chosen.filter((modelId) => modelId !== model._id),
                    )
                  }
                />{' '}
                <label htmlFor={boxId}>
                  <bdi>{model.name}</bdi>
                  {index === 0 && ` (${t('default')})`}
                </label>
              </span>
              {index > 0 && (
                <button
                  type="button"
                  className="button small"
                  aria-label={`${t('Move up')} ${model.name}`}
                  onClick={() => moveUp(index)}
                >
                  <T>Move up</T>
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {problem && (
        <p id={`${id}-error`} className="field-error">
          {t(problem)}
        </p>
      )}
    </fieldset>
  );
}
