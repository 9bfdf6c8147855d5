import { useSelector } from '@xstate/react';
import { useId, useRef, useState } from 'react';
import type { ProjectConversations } from '../../../machines/projects';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';

const choices: { value: ProjectConversations; label: string }[] = [
  { value: 'keep', label: 'Keep them (move out of the project)' },
  { value: 'delete', label: 'Delete its conversations too' },
];

/** Deleting a project asks what becomes of its conversations: nothing is lost silently. */
export function DeleteProjectDialog() {
  const { projects } = useWorkspace();
  const descriptionId = useId();
  const target = useSelector(projects, (snapshot) => snapshot.context.target);
  const problem = useSelector(projects, (snapshot) => snapshot.context.problem?.message ?? null);
  const deleting = useSelector(projects, (snapshot) => snapshot.matches({ dialog: 'deleting' }));
  const [conversations, setConversations] = useState<ProjectConversations>('keep');
  // Once deleted, its overview is gone: focus goes to New chat at the sidebar's top; Cancel returns it.
  const afterDeleting = useRef<HTMLElement | null>(null);
  const cancel = () => {
    afterDeleting.current = null;
    projects.send({ type: 'CANCEL' });
  };
  const remove = () => {
    afterDeleting.current = document.querySelector<HTMLElement>('#conversation-sidebar .new-chat');
    projects.send({ type: 'DELETE', conversations });
  };

  return (
    <Dialog
      title="Delete this project?"
      describedBy={descriptionId}
      onClose={cancel}
      returnFocus={afterDeleting}
    >
      <div id={descriptionId}>
        <p>
          <strong>
            <Bdi text={target?.name ?? ''} />
          </strong>
        </p>
        <p>
          <T>The project is deleted for everyone it is shared with. This cannot be undone.</T>
        </p>
      </div>
      <fieldset className="move-choices" disabled={deleting}>
        <legend>
          <T>Its conversations</T>
        </legend>
        {choices.map((choice) => (
          <label key={choice.value} className="choice share-choice">
            <input
              type="radio"
              name="conversations"
              value={choice.value}
              checked={conversations === choice.value}
              onChange={() => setConversations(choice.value)}
            />
            <span>
              <T>{choice.label}</T>
            </span>
          </label>
        ))}
      </fieldset>
      <FormError message={problem} />
      <div className="actions">
        <button type="button" className="button" onClick={cancel}>
          <T>Cancel</T>
        </button>
        <button type="button" className="button danger primary" disabled={deleting} onClick={remove}>
          <T>Delete project</T>
        </button>
      </div>
    </Dialog>
  );
}
