import { useSelector } from '@xstate/react';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { isMobileWidth } from '../../machines/sidePanel';
// Static, so its chunk loads alongside this one rather than once this one has rendered.
import '../app/createWorkspaceActors';
import { useWorkspace } from '../app/useWorkspace';
import { AppHeader } from '../components/AppHeader';
import { Loading } from '../components/Loading';
import { PanelButtons } from '../home/sidePanel/PanelButtons';
import { SidePanel } from '../home/sidePanel/SidePanel';
import { ConversationDialogs } from './conversations/ConversationDialogs';
import { ConversationSidebar } from './conversations/ConversationSidebar';
import { DrawerButton } from './conversations/DrawerButton';
import { PaletteKeys } from './palette/PaletteKeys';
import { ProjectDialogs } from './projects/ProjectDialog';

// Its own chunk: most sessions never make a bot.
const MemberBotDialogs = lazy(() => import('./memberBots/MemberBotDialogs'));

/**
 * Every logged-in screen: the same header on home and chat, the conversation sidebar (a drawer on a
 * phone), the screen itself as the page's main content, and the side panel.
 */
export default function Workspace({ children }: { children: ReactNode }) {
  const { sidePanel, conversations, memberBots } = useWorkspace();
  const botDialog = useSelector(memberBots, (snapshot) => !snapshot.matches({ dialog: 'closed' }));

  useEffect(() => {
    const onResize = () => {
      // Seed-spec §2: at 768 px or less a resize forces the panel closed; wider, there is no drawer.
      sidePanel.send({ type: 'RESIZE', width: window.innerWidth });
      if (!isMobileWidth(window.innerWidth)) conversations.send({ type: 'CLOSE_DRAWER' });
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [sidePanel, conversations]);

  return (
    <div className="app-shell">
      <AppHeader start={<DrawerButton />}>
        <PanelButtons />
      </AppHeader>
      <div className="workspace">
        <ConversationSidebar />
        <main id="main" className="workspace-main">
          <Suspense fallback={<Loading />}>{children}</Suspense>
        </main>
        <SidePanel />
      </div>
      <ConversationDialogs />
      <ProjectDialogs />
      <PaletteKeys />
      {botDialog && (
        <Suspense fallback={null}>
          <MemberBotDialogs />
        </Suspense>
      )}
    </div>
  );
}
