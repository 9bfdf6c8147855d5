import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { activeBots } from '../../../machines/bots';
import {
  maxInstructions,
  maxProjectFiles,
  type ProjectDraft,
  type ProjectRecord,
} from '../../../machines/projects';
import { CheckboxField } from '../../admin/fields/CheckboxField';
import { SelectField } from '../../admin/fields/SelectField';
import { TextAreaField } from '../../admin/fields/TextAreaField';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { AttachButton } from '../../chat/attachments/AttachButton';
import { AttachmentList } from '../../chat/attachments/AttachmentList';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { DeleteProjectDialog } from './DeleteProjectDialog';

const draftOf = (project: ProjectRecord | null): ProjectDraft => ({
  name: project?.name ?? '',
  instructions: project?.instructions ?? '',
  bot: project?.bot ?? null,
  files: [],
  knowledgeBases: project?.knowledgeBases ?? [],
  groups: project?.groups ?? [],
});

/** Adds or takes away one id of a list of them. */
const toggled = (ids: string[], id: string, on: boolean) =>
  on ? [...ids, id] : ids.filter((known) => known !== id);

/**
 * Creates or changes a project: name, instructions (with a counter), files (uploaded like a message's),
 * knowledge bases, default bot, and the groups it is shared with. The name and the instructions'
 * length are checked here; the server's refusal shows at the field it names.
 */
function ProjectForm() {
  const { projects, projectFiles, inspect } = useWorkspace();
  const { bots } = useActors();
  const t = useT();
  const format = useFormat();
  const target = useSelector(projects, (snapshot) => snapshot.context.target);
  const choices = useSelector(projects, (snapshot) => snapshot.context.choices);
  const problem = useSelector(projects, (snapshot) => snapshot.context.problem);
  const state = useSelector(projects, (snapshot) => snapshot.value.dialog);
  const available = activeBots(useSelector(bots, (snapshot) => snapshot.context.bots));
  const files = useActorRef(projectFiles, { inspect, input: { limit: maxProjectFiles } });
  const entries = useSelector(files, (snapshot) => snapshot.context.files);
  const [draft, setDraft] = useState(() => draftOf(target));
  const [checked, setChecked] = useState(false);
  const cancel = () => projects.send({ type: 'CANCEL' });
  const change = (values: Partial<ProjectDraft>) => setDraft((current) => ({ ...current, ...values }));

  useEffect(() => {
    if (target?.files.length)
      files.send({
        type: 'RESTORE',
        files: target.files,
      });
  }, [files, target]);

  const uploading = entries.some((entry) => entry.status === 'uploading');
  const tooLong = draft.instructions.length > maxInstructions;
  const errorAt = (field: string, local: string | false) =>
    (checked && local) || (problem?.field === field ? problem.message : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const ids = entries.flatMap((entry) => (entry.file ? [entry.file._id] : []));
    projects.send({ type: 'SAVE', draft: { ...draft, files: ids } });
  };

  return (
    <Dialog
      title={target ? 'Edit project' : 'New project'}
      role="dialog"
      className="scrolling"
      onClose={cancel}
    >
      <form className="form compact project-form" noValidate onSubmit={submit}>
        <TextField
          label="Name"
          value={draft.name}
          maxLength={100}
          dir="auto"
          required
          error={errorAt('name', !draft.name.trim() && 'Enter a name.')}
          onChange={(event) => change({ name: event.target.value })}
        />
        <TextAreaField
          label="Instructions"
          value={draft.instructions}
          rows={5}
          dir="auto"
          hint={`${format.number(draft.instructions.length)} / ${format.number(maxInstructions)}`}
          error={errorAt('instructions', tooLong && 'Instructions can be at most 8,000 characters.')}
          onChange={(event) => change({ instructions: event.target.value })}
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
          legend="Knowledge bases"
          items={choices.knowledgeBases}
          chosen={draft.knowledgeBases}
          onChange={(knowledgeBases) => change({ knowledgeBases })}
        />
        <SelectField
          label="Default bot"
          value={draft.bot ?? ''}
          options={[
            { value: '', label: 'None: chosen for each chat' },
            ...available.map((bot) => ({ value: bot._id, label: bot.name, raw: true })),
          ]}
          error={problem?.field === 'bot' ? problem.message : undefined}
          onChange={(event) => change({ bot: event.target.value || null })}
        />
        <IdChoices
          legend="Share with groups"
          items={choices.groups}
          chosen={draft.groups}
          onChange={(groups) => change({ groups })}
        />
        <FormError message={problem && !problem.field ? problem.message : null} />
        <div className="actions">
          <button type="button" className="button" onClick={cancel}>
            <T>Cancel</T>
          </button>
          <button type="submit" className="button primary" disabled={state !== 'editing' || uploading}>
            {target ? <T>Save</T> : <T>Create project</T>}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A project shared with the member: what its owner wrote and gave it, nothing to change. */
function ProjectDetails() {
  const { projects } = useWorkspace();
  const t = useT();
  const target = useSelector(projects, (snapshot) => snapshot.context.target);
  const close = () => projects.send({ type: 'CANCEL' });
  if (!target) return null;
  return (
    <Dialog title={target.name} titleIsName role="dialog" onClose={close}>
      <p>
        {t('Shared by')} <bdi>{target.owner.name}</bdi>
      </p>
      <h3>
        <T>Instructions</T>
      </h3>
      <p className="project-instructions-full">{target.instructions || t('None')}</p>
      <h3>
        <T>Files</T>
      </h3>
      {target.files.length ? (
        <ul className="project-files">
          {target.files.map((file) => (
            <li key={file._id}>
              <bdi>{file.name}</bdi>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('None')}</p>
      )}
      <div className="actions">
        <button type="button" className="button primary" onClick={close}>
          <T>Close</T>
        </button>
      </div>
    </Dialog>
  );
}

/** The project dialog open now, if any: the form, the shared project's details, or the delete question. */
export function ProjectDialogs() {
  const { projects } = useWorkspace();
  const state = useSelector(projects, (snapshot) => snapshot.value.dialog);
  if (state === 'reading') return <ProjectDetails />;
  if (state === 'loadingChoices' || state === 'editing' || state === 'saving') return <ProjectForm />;
  if (state === 'confirmingDelete' || state === 'deleting') return <DeleteProjectDialog />;
  return null;
}

/** A fieldset of checkboxes, one per item, choosing ids; nothing when there is nothing to choose. */
export function IdChoices({
  legend,
  items,
  chosen,
  onChange,
}: {
  legend: string;
  items: { _id: string; name: string }[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  if (!items.length) return null;
  return (
    <fieldset>
      <legend>
        <T>{legend}</T>
      </legend>
      {items.map((item) => (
        <CheckboxField
          key={item._id}
          label={item.name}
          raw
          checked={chosen.includes(item._id)}
          onChange={(event) => onChange(toggled(chosen, item._id, event.target.checked))}
        />
      ))}
    </fieldset>
  );
}
