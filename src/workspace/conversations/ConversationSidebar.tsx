import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { useWorkspace } from '../../app/useWorkspace';
import { Icon } from '../../components/Icon';
import { useFocusTrap } from '../../components/useFocusTrap';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { AllConversations, ProjectOverview } from '../projects/ProjectOverview';
import { ProjectsSection } from '../projects/ProjectsSection';
import { ConversationList } from './ConversationList';
import { ConversationSearch } from './ConversationSearch';

/**
 * The user's conversations beside every logged-in screen: New chat, the search, the list. On a phone
 * it is a drawer: it traps focus while open, and Escape, the scrim or a choice closes it.
 */
export function ConversationSidebar() {
  const { conversations, projects } = useWorkspace();
  const t = useT();
  const nav = useRef<HTMLElement>(null);
  const open = useSelector(conversations, (snapshot) => snapshot.matches({ drawer: 'open' }));
  const filter = useSelector(conversations, (snapshot) => snapshot.context.filter);
  const project = useSelector(projects, (snapshot) =>
    snapshot.context.items.find((item) => item._id === filter.project),
  );
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
        {project ? (
          <ProjectOverview key={project._id} project={project} />
        ) : filter.archived ? (
          <section className="project-overview" aria-labelledby="archived-heading">
            <AllConversations />
            <h2 id="archived-heading" className="project-heading">
              <T>Archived conversations</T>
            </h2>
          </section>
        ) : (
          <ProjectsSection />
        )}
        <ConversationList />
        {!filter.archived && !filter.project && (
          <button
            type="button"
            className="button small show-archived"
            onClick={() => conversations.send({ type: 'FILTER', filter: { project: null, archived: true } })}
          >
            <T>Archived conversations</T>
          </button>
        )}
      </nav>
      {/* For the pointer: Escape and the close button serve the keyboard. */}
      {open && <div className="drawer-scrim" aria-hidden="true" onClick={close} />}
    </>
  );
}
