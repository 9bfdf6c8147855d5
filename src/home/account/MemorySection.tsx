import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { type Memory, maxMemory } from '../../../machines/memories';
import { SelectField } from '../../admin/fields/SelectField';
import { TextAreaField } from '../../admin/fields/TextAreaField';
import { ListProblem } from '../../admin/ListProblem';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/**
 * The member's memories in the Profile panel: each with its project and who saved it, Edit (a dialog)
 * and Delete, a form to add one (optionally to a project), and Forget all after a confirmation.
 */
export function MemorySection() {
  const { personal, inspect } = useWorkspace();
  const actor = useActorRef(personal.memories, { inspect });
  const t = useT();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const forgetAll = useRef<HTMLButtonElement>(null);
  // After the dialog: back to Forget all (Cancel), or to the heading once it is gone with the memories.
  const [afterForget] = useState(() => ({
    get current(): HTMLElement | null {
      return forgetAll.current ?? heading.current;
    },
  }));
  const snapshot = useSelector(actor, (state) => state);
  const { memories, projects, editing, problem, added } = snapshot.context;
  const [text, setText] = useState('');
  const [project, setProject] = useState('');
  // The form empties once its memory is added.
  useEffect(() => {
    if (added) setText('');
  }, [added]);
  const projectName = (id: string | null) => projects.find((item) => item._id === id)?.name ?? null;
  const dialogOpen = snapshot.matches('edit');
  const confirming = snapshot.matches('asking') || snapshot.matches('forgetting');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'ADD', text, project: project || null });
  };

  return (
    <section className="panel-section memories" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        <T>Memory</T>
      </h3>
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
          {memories.length === 0 ? (
            <p className="empty">
              <T>No memories yet. Add one, or a model bot saves one when you ask it to remember something.</T>
            </p>
          ) : (
            <ul className="memory-list">
              {memories.map((memory) => (
                <MemoryItem
                  key={memory._id}
                  memory={memory}
                  project={projectName(memory.project)}
                  busy={!snapshot.matches('idle')}
                  onEdit={() => actor.send({ type: 'EDIT', id: memory._id })}
                  onDelete={() => {
                    actor.send({ type: 'DELETE', id: memory._id });
                    heading.current?.focus();
                  }}
                />
              ))}
            </ul>
          )}
          {!dialogOpen && !confirming && (
            <FormError message={problem?.field === null ? problem.message : null} />
          )}
          <form className="form compact" noValidate onSubmit={submit}>
            <TextAreaField
              label="Add a memory"
              rows={2}
              maxLength={maxMemory}
              value={text}
              error={!dialogOpen && problem?.field === 'text' ? problem.message : undefined}
              onChange={(event) => setText(event.target.value)}
            />
            {projects.length > 0 && (
              <SelectField
                label="Project (optional)"
                value={project}
                onChange={(event) => setProject(event.target.value)}
                options={[
                  { value: '', label: 'None: used everywhere' },
                  ...projects.map((item) => ({ value: item._id, label: item.name, raw: true })),
                ]}
              />
            )}
            <div className="actions">
              <button type="submit" className="button small primary" disabled={snapshot.matches('adding')}>
                {snapshot.matches('adding') ? t('Adding…') : t('Add')}
              </button>
              {memories.length > 0 && (
                <button
                  ref={forgetAll}
                  type="button"
                  className="button small danger"
                  onClick={() => actor.send({ type: 'ASK_FORGET' })}
                >
                  <T>Forget all</T>
                </button>
              )}
            </div>
          </form>
        </>
      )}
      {dialogOpen && editing && (
        <EditDialog
          memory={editing}
          busy={snapshot.matches({ edit: 'savingEdit' })}
          problem={problem?.message ?? null}
          onSave={(changed) => actor.send({ type: 'SAVE', text: changed })}
          onCancel={() => actor.send({ type: 'CANCEL' })}
        />
      )}
      {confirming && (
        <ForgetDialog
          busy={snapshot.matches('forgetting')}
          error={problem?.message ?? null}
          returnFocus={afterForget}
          onConfirm={() => actor.send({ type: 'FORGET' })}
          onCancel={() => actor.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}

function MemoryItem({
  memory,
  project,
  busy,
  onEdit,
  onDelete,
}: {
  memory: Memory;
  project: string | null;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const textId = useId();
  return (
    <li className="memory">
      <p id={textId} className="memory-text">
        <Bdi text={memory.text} />
      </p>
      <p className="memory-meta muted">
        {memory.source === 'model' ? <T>Saved by a model bot</T> : <T>Saved by you</T>}
        {project && (
          <>
            {' · '}
            <T>Project</T>: <Bdi text={project} />
          </>
        )}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button small"
          aria-describedby={textId}
          disabled={busy}
          onClick={onEdit}
        >
          <T>Edit</T>
        </button>
        <button
          type="button"
          className="button small"
          aria-describedby={textId}
          disabled={busy}
          onClick={onDelete}
        >
          <T>Delete</T>
        </button>
      </div>
    </li>
  );
}

/** The memory's text to change; Cancel or Escape keeps it, and focus goes back to its Edit. */
function EditDialog({
  memory,
  busy,
  problem,
  onSave,
  onCancel,
}: {
  memory: Memory;
  busy: boolean;
  problem: string | null;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(memory.text);
  return (
    <Dialog title="Edit memory" role="dialog" onClose={onCancel}>
      <form
        className="form compact"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSave(text);
        }}
      >
        <TextAreaField
          label="Memory"
          rows={3}
          maxLength={maxMemory}
          value={text}
          error={problem ?? undefined}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="actions">
          <button type="button" className="button" onClick={onCancel}>
            <T>Cancel</T>
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            <T>Save</T>
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Asks before every memory is forgotten; focus goes to `returnFocus` after. */
function ForgetDialog({
  busy,
  error,
  returnFocus,
  onConfirm,
  onCancel,
}: {
  busy: boolean;
  error: string | null;
  returnFocus: RefObject<HTMLElement | null>;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const descriptionId = useId();
  return (
    <Dialog
      title="Forget all memories?"
      describedBy={descriptionId}
      onClose={onCancel}
      returnFocus={returnFocus}
    >
      <p id={descriptionId}>
        <T>Every memory is deleted, in every project. None can be brought back.</T>
      </p>
      <FormError message={error} />
      <div className="actions">
        <button type="button" className="button" onClick={onCancel}>
          <T>Cancel</T>
        </button>
        <button type="button" className="button danger primary" disabled={busy} onClick={onConfirm}>
          <T>Forget all</T>
        </button>
      </div>
    </Dialog>
  );
}
