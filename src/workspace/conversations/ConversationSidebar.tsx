import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { useWorkspace } from '../../app/useWorkspace';
import { Icon } from '../../components/Icon';
import { useFocusTrap } from '../../components/useFocusTrap';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { ConversationList } from './ConversationList';
import { ConversationSearch } from './ConversationSearch';

/**
 * The user's conversations beside every logged-in screen: New chat, the search, the list. On a phone
 * it is a drawer: it traps focus while open, and Escape, the scrim or a choice closes it.
 */
export function ConversationSidebar() {
  const { conversations } = useWorkspace();
  const t = useT();
  const nav = useRef<HTMLElement>(null);
  const open = useSelector(conversations, (snapshot) => snapshot.matches({ drawer: 'open' }));
  const close = () => conversations.send({ type: 'CLOSE_DRAWER' });
  const onKeyDown = useFocusTrap(nav, { active: open, onEscape: close });

  useEffect(() => {
    conversations.send({ type: 'LOAD' });
  }, [conversations]);

  return (
    <>
      <nav
        id="conversation-sidebar"
        ref={nav}
        className={open ? 'sidebar open' : 'sidebar'}
        aria-label={t('Conversations')}
        onKeyDown={onKeyDown}
      >
        <div className="sidebar-top">
          <Link href="/list" className="button primary new-chat" onClick={close}>
            <T>New chat</T>
          </Link>
          <button
            type="button"
            className="icon-button drawer-close"
            aria-label={t('Close conversations')}
            onClick={close}
          >
            <Icon name="close" />
          </button>
        </div>
        <ConversationSearch />
        <ConversationList />
      </nav>
      {/* For the pointer: Escape and the close button serve the keyboard. */}
      {open && <div className="drawer-scrim" aria-hidden="true" onClick={close} />}
    </>
  );
}
