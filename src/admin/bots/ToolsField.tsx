import { useId } from 'react';
import type { BotDraft, ToolChoice } from '../../../machines/botEditor';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

const hint =
  'The model may call the tools chosen. With “Ask first”, each call waits until the person chatting allows it.';

interface ToolsFieldProps {
  tools: ToolChoice[];
  chosen: string[];
  askFirst: string[];
  problem?: string;
  onChange: (values: Pick<BotDraft, 'tools' | 'askFirst'>) => void;
}

/**
 * A model bot's tools: a box per tool the organization offers (built-in ones first, then each MCP
 * server's), and beside each chosen one an "Ask first" box — its calls wait for the person chatting.
 */
export function ToolsField({ tools, chosen, askFirst, problem, onChange }: ToolsFieldProps) {
  const t = useT();
  const id = useId();
  const toggle = (name: string, on: boolean) =>
    onChange({
      tools: on ? [...chosen, name] : chosen.filter((tool) => tool !== name),
      askFirst: on ? askFirst : askFirst.filter((tool) => tool !== name),
    });
  const toggleAsk = (name: string, on: boolean) =>
    onChange({
      tools: chosen,
      askFirst: on ? [...askFirst, name] : askFirst.filter((tool) => tool !== name),
    });
  return (
    <fieldset
      className="choices tool-choices"
      aria-describedby={[`${id}-hint`, problem && `${id}-error`].filter(Boolean).join(' ')}
      aria-invalid={problem ? true : undefined}
      tabIndex={problem ? -1 : undefined}
    >
      <legend>{t('Tools')}</legend>
      <p id={`${id}-hint`} className="field-hint">
        {t(hint)}
      </p>
      {tools.length === 0 && (
        <p className="field-hint">
          <T>No tools yet.</T>
        </p>
      )}
      <ul className="tool-choice-list">
        {tools.map((tool) => {
          const on = chosen.includes(tool.name);
          const boxId = `${id}-${tool.name}`;
          return (
            <li key={tool.name} className="tool-choice">
              <span>
                <input
                  id={boxId}
                  type="checkbox"
                  checked={on}
                  aria-describedby={`${boxId}-about`}
                  onChange={(event) => toggle(tool.name, event.target.checked)}
                />{' '}
                <label htmlFor={boxId}>
                  <code>{tool.name}</code>
                </label>
              </span>
              <label className="ask-first">
                <input
                  type="checkbox"
                  checked={askFirst.includes(tool.name)}
                  disabled={!on}
                  aria-label={`${t('Ask first')}: ${tool.name}`}
                  onChange={(event) => toggleAsk(tool.name, event.target.checked)}
                />{' '}
                {t('Ask first')}
              </label>
              <p id={`${boxId}-about`} className="field-hint">
                {tool.server ? (
                  <>
                    <bdi>{tool.server.name}</bdi>
                    {': '}
                  </>
                ) : null}
                <bdi>{tool.source === 'builtin' ? t(tool.description) : tool.description}</bdi>
              </p>
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
