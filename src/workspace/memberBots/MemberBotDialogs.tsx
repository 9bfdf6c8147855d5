import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import {
  type BotVisibility,
  type MemberBotDraft,
  type MemberBotRecord,
  maxBotFiles,
  maxBotInstructions,
  maxStarters,
} from '../../../machines/memberBots';
import { SelectField } from '../../admin/fields/SelectField';
import { TextAreaField } from '../../admin/fields/TextAreaField';
import { useWorkspace } from '../../app/useWorkspace';
import { AttachButton } from '../../chat/attachments/AttachButton';
import { AttachmentList } from '../../chat/attachments/AttachmentList';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { IdChoices } from '../projects/ProjectDialog';

const draftOf = (bot: MemberBotRecord | null): MemberBotDraft => ({
  name: bot?.name ?? '',
  description: bot?.description ?? '',
  instructions: bot?.instructions ?? '',
  starters: bot?.starters ?? [],
  model: bot?.model ?? '',
  files: [],
  tools: bot?.tools ?? [],
  visibility: bot?.visibility ?? 'private',
  groups: bot?.groups ?? [],
});

const visibilities: { value: BotVisibility; label: string }[] = [
  { value: 'private', label: 'Only me' },
  { value: 'groups', label: 'Groups I am in' },
  { value: 'organization', label: 'Everyone in the organization' },
];

/** Starter prompts as the form writes them: one a line, without empty ones. */
const startersOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * Makes or changes a member's bot: name, description, instructions (with a counter), starter prompts
 * (one a line), its model (those open to members' bots), its files (uploaded like a message's), the
 * tools members may give it, and whom it is for. What is checked here is checked again by the server,
 * whose refusal shows at the field it names.
 */
function MemberBotForm() {
  const { memberBots, memberBotFiles, inspect } = useWorkspace();
  const t = useT();
  const format = useFormat();
  const visibilityId = useId();
  const target = useSelector(memberBots, (snapshot) => snapshot.context.target);
  const choices = useSelector(memberBots, (snapshot) => snapshot.context.choices);
  const problem = useSelector(memberBots, (snapshot) => snapshot.context.problem);
  const state = useSelector(memberBots, (snapshot) => snapshot.value.dialog);
  const files = useActorRef(memberBotFiles, { inspect, input: { limit: maxBotFiles } });
  const entries = useSelector(files, (snapshot) => snapshot.context.files);
  const [draft, setDraft] = useState(() => draftOf(target));
  const [starters, setStarters] = useState(() => draft.starters.join('\n'));
  const [checked, setChecked] = useState(false);
  const cancel = () => memberBots.send({ type: 'CANCEL' });
  const change = (values: Partial<MemberBotDraft>) => setDraft((current) => ({ ...current, ...values }));

  useEffect(() => {
    if (target?.files.length) files.send({ type: 'RESTORE', files: target.files });
  }, [files, target]);
  // A new bot runs on the first model offered until another is chosen.
  useEffect(() => {
    if (choices.models[0])
      setDraft((current) => (current.model ? current : { ...current, model: choices.models[0]._id }));
  }, [choices.models]);

  const uploading = entries.some((entry) => entry.status === 'uploading');
  const tooLong = draft.instructions.length > maxBotInstructions;
  const tooMany = startersOf(starters).length > maxStarters;
  const errorAt = (field: string, local: string | false) =>
    (checked && local) || (problem?.field === field ? problem.message : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (tooMany) return;
    const ids = entries.flatMap((entry) => (entry.file ? [entry.file._id] : []));
    memberBots.send({
      type: 'SAVE',
      draft: {
        ...draft,
        starters: startersOf(starters),
        files: ids,
        groups: draft.visibility === 'groups' ? draft.groups : [],
      },
    });
  };

  return (
    <Dialog title={target ? 'Edit bot' : 'Make a bot'} role="dialog" className="scrolling" onClose={cancel}>
      <form className="form compact project-form" noValidate onSubmit={submit}>
        <TextField
          label="Name"
          value={draft.name}
          maxLength={80}
          dir="auto"
          required
          error={errorAt('name', !draft.name.trim() && 'Enter a name.')}
          onChange={(event) => change({ name: event.target.value })}
        />
        <TextField
          label="Description"
          value={draft.description}
          maxLength={1000}
          dir="auto"
          error={errorAt('description', false)}
          onChange={(event) => change({ description: event.target.value })}
        />
        <TextAreaField
          label="Instructions"
          value={draft.instructions}
          rows={5}
          dir="auto"
          hint={`${format.number(draft.instructions.length)} / ${format.number(maxBotInstructions)}`}
          error={errorAt('instructions', tooLong && 'Instructions can be at most 8,000 characters.')}
          onChange={(event) => change({ instructions: event.target.value })}
        />
        <TextAreaField
          label="Starter prompts"
          hint="One per line, at most 6: offered when a conversation starts."
          value={starters}
          rows={3}
          dir="auto"
          error={errorAt('starters', tooMany && 'At most 6 starter prompts.')}
          onChange={(event) => setStarters(event.target.value)}
        />
        <SelectField
          label="Model"
          value={draft.model}
          required
          options={[
            ...(draft.model ? [] : [{ value: '', label: 'Choose a model' }]),
            ...choices.models.map((model) => ({ value: model._id, label: model.name, raw: true })),
          ]}
          error={errorAt('model', !draft.model && 'Choose a model')}
          onChange={(event) => change({ model: event.target.value })}
        />
        <fieldset className="project-files-field">
          <legend>
            <T>Files</T>
          </legend>
          <AttachmentList attachments={files} />
          <AttachButton
            disabled={false}
            onFiles={(picked) =>
              files.send({
                type: 'ADD',
                files: picked.map((file) => ({
                  name: file.name,
                  type: file.type,
                  size: file.size,
                  source: file,
                })),
              })
            }
          />
          {problem?.field === 'files' && <p className="field-error">{t(problem.message)}</p>}
        </fieldset>
        <IdChoices
          legend="Tools"
          items={choices.tools.map((tool) => ({ _id: tool.name, name: tool.name }))}
          chosen={draft.tools}
          onChange={(tools) => change({ tools })}
        />
        <fieldset aria-describedby={problem?.field === 'visibility' ? `${visibilityId}-error` : undefined}>
          <legend>
            <T>Who may use it</T>
          </legend>
          {visibilities.map((choice) => (
            <label key={choice.value} className="choice share-choice">
              <input
                type="radio"
                name="visibility"
                value={choice.value}
                checked={draft.visibility === choice.value}
                disabled={choice.value === 'groups' && !choices.groups.length}
                onChange={() => change({ visibility: choice.value })}
              />
              <span>
                <T>{choice.label}</T>
              </span>
            </label>
          ))}
          {problem?.field === 'visibility' && (
            <p id={`${visibilityId}-error`} className="field-error">
              {t(problem.message)}
            </p>
          )}
        </fieldset>
        {draft.visibility === 'groups' && (
          <>
            <IdChoices
              legend="Share with groups"
              items={choices.groups}
              chosen={draft.groups}
              onChange={(groups) => change({ groups })}
            />
            {((checked && !draft.groups.length) || problem?.field === 'groups') && (
              <p className="field-error" role="alert">
                {problem?.field === 'groups' ? t(problem.message) : t('Choose at least one group.')}
              </p>
            )}
          </>
        )}
        <FormError message={problem && !problem.field ? problem.message : null} />
        <div className="actions">
          <button type="button" className="button" onClick={cancel}>
            <T>Cancel</T>
          </button>
          <button type="submit" className="button primary" disabled={state !== 'editing' || uploading}>
            {target ? <T>Save</T> : <T>Make a bot</T>}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Deleting a bot asks first: conversations that name it keep it, but it answers no more. */
function DeleteMemberBotDialog() {
  const { memberBots } = useWorkspace();
  const t = useT();
  const descriptionId = useId();
  const target = useSelector(memberBots, (snapshot) => snapshot.context.target);
  const problem = useSelector(memberBots, (snapshot) => snapshot.context.problem?.message ?? null);
  const deleting = useSelector(memberBots, (snapshot) => snapshot.matches({ dialog: 'deleting' }));
  const cancel = () => memberBots.send({ type: 'CANCEL' });
  return (
    <Dialog title="Delete this bot?" describedBy={descriptionId} onClose={cancel}>
      <div id={descriptionId}>
        <p>
          <strong>
            <Bdi text={target?.name ?? ''} />
          </strong>
        </p>
        <p>{t('Deleted for everyone it is shared with, it answers no more. This cannot be undone.')}</p>
      </div>
      <FormError message={problem} />
      <div className="actions">
        <button type="button" className="button" onClick={cancel}>
          <T>Cancel</T>
        </button>
        <button
          type="button"
          className="button danger primary"
          disabled={deleting}
          onClick={() => memberBots.send({ type: 'DELETE' })}
        >
          <T>Delete bot</T>
        </button>
      </div>
    </Dialog>
  );
}

/** The member-bot dialog open now (a lazy chunk): the form, or the delete question. */
export default function MemberBotDialogs() {
  const { memberBots } = useWorkspace();
  const state = useSelector(memberBots, (snapshot) => snapshot.value.dialog);
  if (state === 'loadingChoices' || state === 'editing' || state === 'saving') return <MemberBotForm />;
  if (state === 'confirmingDelete' || state === 'deleting') return <DeleteMemberBotDialog />;
  return null;
}
