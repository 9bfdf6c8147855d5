import { useSelector } from '@xstate/react';
import { useId, useRef } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';

/** The sidebar's link to the conversation next to this one, if any. */
function neighbourOf(id: string | undefined): HTMLElement | null {
  const links = [...document.querySelectorAll<HTMLElement>('#conversation-sidebar .conversation-link')];
  const index = links.findIndex((link) => link.getAttribute('href') === `/topics/${id}`);
  if (index < 0) return null;
  return links[index + 1] ?? links[index - 1] ?? null;
}

/** Confirms deleting a conversation and its messages; Keep or Escape leaves it. */
export function DeleteConversationDialog() {
  const { conversations } = useWorkspace();
  const descriptionId = useId();
  const target = useSelector(conversations, (snapshot) => snapshot.context.target);
  const problem = useSelector(conversations, (snapshot) => snapshot.context.editError);
  const deleting = useSelector(conversations, (snapshot) => snapshot.matches({ edit: 'deleting' }));
  // Once deleted, focus goes to the conversation listed after it (or before it); Keep returns to the menu.
  const afterDeleting = useRef<HTMLElement | null>(null);
  const keep = () => {
    afterDeleting.current = null;
    conversations.send({ type: 'CANCEL' });
  };
  const remove = () => {
    afterDeleting.current = neighbourOf(target?._id);
    conversations.send({ type: 'DELETE' });
  };

  return (
    <Dialog
      title="Delete this conversation?"
      describedBy={descriptionId}
      onClose={keep}
      returnFocus={afterDeleting}
    >
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
        <button type="button" className="button danger primary" disabled={deleting} onClick={remove}>
          <T>Yes, delete</T>
        </button>
      </div>
    </Dialog>
  );
}
