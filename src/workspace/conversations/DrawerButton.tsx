import { useSelector } from '@xstate/react';
import { useWorkspace } from '../../app/useWorkspace';
import { Icon } from '../../components/Icon';
import { useT } from '../../i18n/useT';

/** The header button that opens the conversation drawer; shown on a phone only. */
export function DrawerButton() {
  const { conversations } = useWorkspace();
  const t = useT();
  const open = useSelector(conversations, (snapshot) => snapshot.matches({ drawer: 'open' }));
  return (
    <button
      type="button"
      className="icon-button drawer-button"
      aria-label={t('Conversations')}
      aria-expanded={open}
      aria-controls="conversation-sidebar"
      onClick={() => conversations.send({ type: open ? 'CLOSE_DRAWER' : 'OPEN_DRAWER' })}
    >
      <Icon name="sidebar" />
    </button>
  );
}
