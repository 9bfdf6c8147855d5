import { useSelector } from '@xstate/react';
import { useWorkspace } from '../../app/useWorkspace';
import { DeleteConversationDialog } from './DeleteConversationDialog';
import { RenameDialog } from './RenameDialog';

/** The dialog of the conversation being renamed or deleted, from the sidebar or the chat's menu. */
export function ConversationDialogs() {
  const { conversations } = useWorkspace();
  const edit = useSelector(conversations, (snapshot) => snapshot.value.edit);
  if (edit === 'renaming' || edit === 'savingTitle') return <RenameDialog />;
  if (edit === 'confirmingDelete' || edit === 'deleting') return <DeleteConversationDialog />;
  return null;
}
