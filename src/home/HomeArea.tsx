import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useActors } from '../app/ActorsContext';
import { AppHeader } from '../components/AppHeader';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { BotCatalogue } from './BotCatalogue';
import { PanelButtons } from './sidePanel/PanelButtons';
import { SidePanel } from './sidePanel/SidePanel';
import { RecentTopics } from './topics/RecentTopics';

/** The home area (`/list`): the user's bots and conversations, with the side panel beside them. */
export default function HomeArea() {
  const { session, sidePanel } = useActors();
  const t = useT();
  const displayName = useSelector(session, (snapshot) => snapshot.context.user?.displayName);

  // Seed-spec §2: at 768 px or less a resize forces the panel closed.
  useEffect(() => {
    const onResize = () => sidePanel.send({ type: 'RESIZE', width: window.innerWidth });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [sidePanel]);

  return (
    <>
      <AppHeader>
        <PanelButtons />
      </AppHeader>
      <div className="home">
        <main id="main" className="home-main">
          <h1>{displayName ? `${t('Hello')}, ${displayName}` : t('Your bots')}</h1>
          <p className="lead">
            <T>Pick a bot and start a conversation.</T>
          </p>
          <RecentTopics />
          <BotCatalogue />
        </main>
        <SidePanel />
      </div>
    </>
  );
}
