import { useActorRef, useSelector } from '@xstate/react';
import { useId, useRef, useState } from 'react';
import type { PromptDraft, PromptField } from '../../../machines/prompts';
import { maxCommand, maxPromptText, maxPromptTitle, type Prompt } from '../../../machines/promptText';
import { CheckboxField } from '../../admin/fields/CheckboxField';
import { TextAreaField } from '../../admin/fields/TextAreaField';
import { isAdmin } from '../../admin/isAdmin';
import { ListProblem } from '../../admin/ListProblem';
import { useActors } from '../../app/ActorsContext';
import { promptMachinesOf } from '../../app/promptActors';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/**
 * Profile → Prompts, loaded with the panel's section: the member's prompts and the organization's,
 * each with its `/command`; Add and Edit in a dialog, Delete. Admins may keep one for the whole
 * organization; members change only their own.
 */
export default function PromptsSection() {
  const { session, services } = useActors();
  const { inspect } = useWorkspace();
  const actor = useActorRef(promptMachinesOf(services.http).prompts, { inspect });
  const admin = useSelector(session, (snapshot) => isAdmin(snapshot.context.user?.role));
  const snapshot = useSelector(actor, (state) => state);
  const { prompts, editing, problem } = snapshot.context;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const dialogOpen = snapshot.matches('dialog');

  return (
    <section className="panel-section prompts" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        <T>Prompts</T>
      </h3>
      <p className="field-hint">
        <T>Type / at the start of a message to pick a saved prompt.</T>
      </p>
      {snapshot.matches('loading') && (
        <p role="status">
          <T>Loading…</T>
        </p>
      )}
      {snapshot.matches('failed') && (
        <ListProblem error={problem?.message ?? null} onRetry={() => actor.send({ type: 'RETRY' })} />
      )}
      {snapshot.hasTag('listed') && (
        <>
          {prompts.length === 0 ? (
            <p className="empty">
              <T>No prompts yet.</T>
            </p>
          ) : (
            <ul className="prompt-list">
              {prompts.map((prompt) => (
                <PromptItem
                  key={prompt._id}
                  prompt={prompt}
                  mayChange={admin || prompt.visibility === 'private'}
                  busy={!snapshot.matches('idle')}
                  onEdit={() => actor.send({ type: 'EDIT', id: prompt._id })}
                  onDelete={() => {
                    actor.send({ type: 'DELETE', id: prompt._id });
                    heading.current?.focus();
                  }}
                />
              ))}
            </ul>
          )}
          {!dialogOpen && <FormError message={problem?.field === null ? problem.message : null} />}
          <button
            type="button"
            className="button small"
            disabled={!snapshot.matches('idle')}
            onClick={() => actor.send({ type: 'NEW' })}
          >
            <T>Add a prompt</T>
          </button>
        </>
      )}
      {dialogOpen && (
        <PromptDialog
          prompt={editing}
          admin={admin}
          busy={!snapshot.matches({ dialog: 'editing' })}
          problem={problem}
          onSave={(draft) => actor.send({ type: 'SAVE', draft })}
          onCancel={() => actor.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}

function PromptItem({
  prompt,
  mayChange,
  busy,
  onEdit,
  onDelete,
}: {
  prompt: Prompt;
  mayChange: boolean;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const nameId = useId();
  return (
    <li className="prompt">
      <p id={nameId}>
        <code dir="auto">/{prompt.command}</code> <Bdi text={prompt.title} />
      </p>
      {prompt.visibility === 'organization' && (
        <p className="muted">
          <T>For the whole organization</T>
        </p>
      )}
      {mayChange && (
        <div className="actions">
          <button
            type="button"
            className="button small"
            aria-describedby={nameId}
            disabled={busy}
            onClick={onEdit}
          >
            <T>Edit</T>
          </button>
          <button
            type="button"
            className="button small"
            aria-describedby={nameId}
            disabled={busy}
            onClick={onDelete}
          >
            <T>Delete</T>
          </button>
        </div>
      )}
    </li>
  );
}

/** A new prompt, or one to change: each problem at its field; Cancel or Escape keeps what there was. */
function PromptDialog({
  prompt,
  admin,
  busy,
  problem,
  onSave,
  onCancel,
}: {
  prompt: Prompt | null;
  admin: boolean;
  busy: boolean;
  problem: { field: PromptField | null; message: string } | null;
  onSave: (draft: PromptDraft) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const [draft, setDraft] = useState<PromptDraft>(
    prompt ?? { command: '', title: '', text: '', visibility: 'private' },
  );
  const change = (part: Partial<PromptDraft>) => setDraft((before) => ({ ...before, ...part }));
  const at = (field: PromptField) => (problem?.field === field ? problem.message : undefined);
  return (
    <Dialog title={prompt ? 'Edit prompt' : 'New prompt'} role="dialog" onClose={onCancel}>
      <form
        className="form compact"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSave(draft);
        }}
      >
        <TextField
          label="Command"
          hint="Type /command at the start of a message to use it."
          autoComplete="off"
          spellCheck={false}
          maxLength={maxCommand + 1}
          value={draft.command}
          error={at('command')}
          onChange={(event) => change({ command: event.target.value })}
        />
        <TextField
          label="Title"
          maxLength={maxPromptTitle}
          value={draft.title}
          error={at('title')}
          onChange={(event) => change({ title: event.target.value })}
        />
        <TextAreaField
          label="Text"
          hint="Write {{name}} where a value is asked for each time."
          rows={5}
          maxLength={maxPromptText}
          value={draft.text}
          error={at('text')}
          onChange={(event) => change({ text: event.target.value })}
        />
        {admin && (
          <CheckboxField
            label="For the whole organization"
            checked={draft.visibility === 'organization'}
            onChange={(event) => change({ visibility: event.target.checked ? 'organization' : 'private' })}
          />
        )}
        <FormError
          message={
            problem && (problem.field === null || problem.field === 'visibility') ? problem.message : null
          }
        />
        <div className="actions">
          <button type="button" className="button" onClick={onCancel}>
            <T>Cancel</T>
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t('Saving…') : t('Save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
