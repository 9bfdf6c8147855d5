import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';

/** Confirms deleting a conversation and its messages; Keep or Escape leaves it. */
export function DeleteConversationDialog() {
  const { conversations } = useWorkspace();
  const descriptionId = useId();
  const target = useSelector(conversations, (snapshot) => snapshot.context.target);
  const problem = useSelector(conversations, (snapshot) => snapshot.context.editError);
  const deleting = useSelector(conversations, (snapshot) => snapshot.matches({ edit: 'deleting' }));
  const keep = () => conversations.send({ type: 'CANCEL' });

  return (
    <Dialog title="Delete this conversation?" describedBy={descriptionId} onClose={keep}>
      <div id={descriptionId}>
        <p>
          <strong>
            <Bdi text={target?.title ?? ''} />
          </strong>
        </p>
        <p>
          <T>It is deleted with all its messages. This cannot be undone.</T>
        </p>
      </div>
      <FormError message={problem} />
      <div className="actions">
        <button type="button" className="button" onClick={keep}>
          <T>Keep</T>
        </button>
        <button
          type="button"
          className="button danger primary"
          disabled={deleting}
          onClick={() => conversations.send({ type: 'DELETE' })}
        >
          <T>Yes, delete</T>
        </button>
      </div>
    </Dialog>
  );
}
