import { useSelector } from '@xstate/react';
import type { SidePanelView } from '../../../machines/sidePanel';
import { useWorkspace } from '../../app/useWorkspace';
import { Icon } from '../../components/Icon';
import { useT } from '../../i18n/useT';
import { BotFilterView } from './BotFilterView';
import { BotListView } from './BotListView';
import { BotView } from './BotView';
import { NotificationsView } from './NotificationsView';
import { ProfileView } from './ProfileView';

const titles: Record<SidePanelView, string> = {
  profile: 'Profile',
  bot: 'Bot details',
  botList: 'Bot list',
  notifications: 'Notifications',
  botFilter: 'Filter bots',
};

const views: Record<SidePanelView, () => React.JSX.Element> = {
  profile: ProfileView,
  bot: BotView,
  botList: BotListView,
  notifications: NotificationsView,
  botFilter: BotFilterView,
};

/** The side panel (seed-spec §2): one of five views, or nothing while closed. */
export function SidePanel() {
  const { sidePanel } = useWorkspace();
  const t = useT();
  const view = useSelector(sidePanel, (snapshot) =>
    snapshot.matches('open') ? ((snapshot.value as { open: SidePanelView }).open ?? null) : null,
  );
  if (!view) return null;
  const View = views[view];
  return (
    <aside className="side-panel" aria-labelledby="side-panel-title">
      <div className="side-panel-header">
        <h2 id="side-panel-title">{t(titles[view])}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label={t('Close side panel')}
          onClick={() => sidePanel.send({ type: 'CLOSE' })}
        >
          <Icon name="close" />
        </button>
      </div>
      <View />
    </aside>
  );
}
