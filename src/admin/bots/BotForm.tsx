import { useSelector } from '@xstate/react';
import { type FormEvent, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { type BotDraft, type botEditorMachine, botEngines, readingEngine } from '../../../machines/botEditor';
import { FormError } from '../../components/FormError';
import { Status } from '../../components/Status';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { CheckboxField } from '../fields/CheckboxField';
import { SelectField } from '../fields/SelectField';
import { TextAreaField } from '../fields/TextAreaField';
import { useFocusFirstProblem } from '../useFocusFirstProblem';
import { ModelsField } from './ModelsField';
import { ToolsField } from './ToolsField';

type Editor = ActorRefFrom<typeof botEditorMachine>;

const engineLabels = {
  eliza: 'ELIZA',
  calculator: 'Calculator',
  translator: 'Translator',
  librarian: 'Librarian',
} as const;

/** The bot's fields, each with its problem next to it; Save checks them, then the server does. */
export function BotForm({ editor }: { editor: Editor }) {
  const t = useT();
  const {
    draft,
    problems,
    providers,
    categories,
    knowledgeBases,
    groups,
    tools,
    catalogue,
    models,
    modelsError,
  } = useSelector(editor, (snapshot) => snapshot.context);
  const form = useSelector(editor, (snapshot) => snapshot.value.form);
  const modelsState = useSelector(editor, (snapshot) => snapshot.value.models);
  const saving = form === 'saving';
  const change = (values: Partial<BotDraft>) => editor.send({ type: 'CHANGE', values });
  const problemOf = (field: keyof BotDraft) => problems.find((problem) => problem.field === field)?.message;
  const formProblem = problems.find((problem) => problem.field === null)?.message ?? null;
  const knowledgeProblem = problemOf('knowledge');
  const text = (field: 'name' | 'model' | 'temperature' | 'contextTokens' | 'price' | 'position') => ({
    name: field,
    value: draft[field],
    error: problemOf(field),
    onChange: (event: { target: { value: string } }) => change({ [field]: event.target.value }),
  });

  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstProblem(formRef, attempt, saving);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    editor.send({ type: 'SAVE' });
    setAttempt((count) => count + 1);
  };

  return (
    <form ref={formRef} className="form admin-form" noValidate onSubmit={submit}>
      <fieldset disabled={saving}>
        <legend className="visually-hidden">{t('Bot details')}</legend>
        <TextField label="Name" maxLength={80} {...text('name')} />
        <TextAreaField
          label="Description"
          rows={2}
          value={draft.description}
          onChange={(event) => change({ description: event.target.value })}
        />
        <SelectField
          label="Platform"
          value={draft.platform}
          onChange={(event) => change({ platform: event.target.value as BotDraft['platform'] })}
          options={[
            { value: 'openai', label: 'OpenAI-compatible' },
            { value: 'builtin', label: 'Built-in' },
            { value: 'image', label: 'Image generation' },
          ]}
        />
        {draft.platform === 'image' ? (
          <p className="field-hint">
            <T>
              Every message is a prompt: the reply is one image, drawn with the image settings under Settings.
            </T>
          </p>
        ) : draft.platform === 'builtin' ? (
          <SelectField
            label="Engine"
            value={draft.engine}
            error={problemOf('engine')}
            onChange={(event) => change({ engine: event.target.value as BotDraft['engine'] })}
            options={[
              { value: '', label: 'Choose…' },
              ...botEngines.map((engine) => ({ value: engine, label: engineLabels[engine] })),
            ]}
          />
        ) : (
          <>
            <SelectField
              label="Provider"
              value={draft.provider}
              onChange={(event) => change({ provider: event.target.value })}
              hint="Add providers under Providers."
              options={[
                { value: '', label: "The server's own provider" },
                ...providers.map((provider) => ({ value: provider._id, label: provider.name, raw: true })),
              ]}
            />
            <TextField
              label="Model"
              list="bot-models"
              autoComplete="off"
              hint={
                modelsState === 'loading'
                  ? 'Loading…'
                  : modelsState === 'failed'
                    ? (modelsError ?? undefined)
                    : models.length
                      ? 'Type or pick one of the provider’s models.'
                      : undefined
              }
              {...text('model')}
            />
            {modelsState === 'failed' && (
              <button
                type="button"
                className="button small"
                onClick={() => editor.send({ type: 'RETRY_MODELS' })}
              >
                <T>Try again</T>
              </button>
            )}
            <datalist id="bot-models">
              {models.map((model) => (
                <option key={model} value={model} />
              ))}
            </datalist>
            <ModelsField
              catalogue={catalogue}
              chosen={draft.models}
              problem={problemOf('models')}
              onChange={(chosen) => change({ models: chosen })}
            />
            <CheckboxField
              label="Members may set temperature and length"
              hint="In a conversation's settings: its temperature and maximum reply length."
              checked={draft.userParameters}
              onChange={(event) => change({ userParameters: event.target.checked })}
            />
            <TextAreaField
              label="System prompt"
              rows={4}
              value={draft.systemPrompt}
              onChange={(event) => change({ systemPrompt: event.target.value })}
            />
            <TextField
              label="Temperature"
              inputMode="decimal"
              hint="From 0 to 2; empty for the model's own."
              {...text('temperature')}
            />
            <TextField
              label="Context size (tokens)"
              inputMode="numeric"
              hint="How much the model reads at once: documents and passages are given as far as they fit."
              {...text('contextTokens')}
            />
            <CheckboxField
              label="Sees images"
              hint="Images people attach are sent to the model; choose a model that reads them."
              checked={draft.vision}
              onChange={(event) => change({ vision: event.target.checked })}
            />
            <ToolsField
              tools={tools}
              chosen={draft.tools}
              askFirst={draft.askFirst}
              problem={problemOf('tools') ?? problemOf('askFirst')}
              onChange={change}
            />
          </>
        )}
        {(draft.platform === 'openai' || draft.engine === readingEngine || draft.knowledge.length > 0) && (
          <fieldset
            className="choices"
            aria-describedby={knowledgeProblem ? 'bot-knowledge-error' : undefined}
            aria-invalid={knowledgeProblem ? true : undefined}
            tabIndex={knowledgeProblem ? -1 : undefined}
          >
            <legend>{t('Knowledge bases')}</legend>
            {knowledgeBases.length === 0 && (
              <p className="field-hint">
                <T>No knowledge bases yet. Add them under Knowledge.</T>
              </p>
            )}
            {knowledgeBases.map((base) => (
              <CheckboxField
                key={base._id}
                label={base.name}
                raw
                checked={draft.knowledge.includes(base._id)}
                onChange={(event) =>
                  change({
                    knowledge: event.target.checked
                      ? [...draft.knowledge, base._id]
                      : draft.knowledge.filter((id) => id !== base._id),
                  })
                }
              />
            ))}
            {knowledgeProblem && (
              <p id="bot-knowledge-error" className="field-error">
                {t(knowledgeProblem)}
              </p>
            )}
          </fieldset>
        )}
        <TextField label="Price per reply" inputMode="decimal" {...text('price')} />
        <fieldset className="choices">
          <legend>{t('Categories')}</legend>
          {categories.length === 0 && (
            <p className="field-hint">
              <T>No categories yet.</T>
            </p>
          )}
          {categories.map((category) => (
            <CheckboxField
              key={category._id}
              label={category.name}
              raw
              checked={draft.categories.includes(category._id)}
              onChange={(event) =>
                change({
                  categories: event.target.checked
                    ? [...draft.categories, category._id]
                    : draft.categories.filter((id) => id !== category._id),
                })
              }
            />
          ))}
        </fieldset>
        <fieldset className="choices" aria-describedby="bot-groups-hint">
          <legend>{t('Groups')}</legend>
          <p id="bot-groups-hint" className="field-hint">
            <T>Only members of the groups chosen can use this bot. None chosen: everyone can.</T>
          </p>
          {groups.length === 0 && (
            <p className="field-hint">
              <T>No groups yet. Add them under Groups.</T>
            </p>
          )}
          {groups.map((group) => (
            <CheckboxField
              key={group._id}
              label={group.name}
              raw
              checked={draft.groups.includes(group._id)}
              onChange={(event) =>
                change({
                  groups: event.target.checked
                    ? [...draft.groups, group._id]
                    : draft.groups.filter((id) => id !== group._id),
                })
              }
            />
          ))}
        </fieldset>
        <CheckboxField
          label="Active"
          hint="Active bots are in the catalogue."
          checked={draft.active}
          onChange={(event) => change({ active: event.target.checked })}
        />
        <TextField
          label="Position"
          inputMode="numeric"
          hint="Lower numbers come first."
          {...text('position')}
        />
      </fieldset>
      <FormError message={formProblem} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={saving}>
          <T>Save</T>
        </button>
      </div>
      <Status message={form === 'saved' ? 'Saved' : null} />
    </form>
  );
}
