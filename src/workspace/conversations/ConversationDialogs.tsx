import { useSelector } from '@xstate/react';
import { useWorkspace } from '../../app/useWorkspace';
import { MoveDialog } from '../projects/MoveDialog';
import { DeleteConversationDialog } from './DeleteConversationDialog';
import { RenameDialog } from './RenameDialog';
import { ShareDialog } from './ShareDialog';

/** The dialog of the conversation being shared, renamed, moved or deleted, from the sidebar or the chat's menu. */
export function ConversationDialogs() {
  const { conversations, share } = useWorkspace();
  const edit = useSelector(conversations, (snapshot) => snapshot.value.edit);
  const arrange = useSelector(conversations, (snapshot) => snapshot.value.arrange);
  const sharing = useSelector(share, (snapshot) => !snapshot.matches('closed'));
  if (sharing) return <ShareDialog />;
  if (edit === 'renaming' || edit === 'savingTitle') return <RenameDialog />;
  if (arrange === 'choosingProject' || arrange === 'moving') return <MoveDialog />;
  if (edit === 'confirmingDelete' || edit === 'deleting') return <DeleteConversationDialog />;
  return null;
}
