import { useSelector } from '@xstate/react';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import type { SnapshotFrom } from 'xstate';
import { type SidePanelView, shownViewOf, type sidePanelMachine } from '../../../machines/sidePanel';
import { useWorkspace } from '../../app/useWorkspace';
import { focusIsLost, focusMainHeading } from '../../components/focusMainHeading';
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

/** The view the side panel shows, or null while it is closed. */
export const shownView = (snapshot: SnapshotFrom<typeof sidePanelMachine>) => shownViewOf(snapshot);

/**
 * The side panel (seed-spec §2): one of five views, or nothing while closed. Opening a view moves
 * focus to its heading (the Close button is the next Tab); Escape closes it, and focus goes back to
 * the button that opened it.
 */
export function SidePanel() {
  const { sidePanel } = useWorkspace();
  const t = useT();
  const view = useSelector(sidePanel, shownView);
  const botId = useSelector(sidePanel, (snapshot) => snapshot.context.botId);
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  // Open when the workspace appears (kept from before): nothing to move focus for.
  const wasOpen = useRef<boolean | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: another bot's details count as opening
  useEffect(() => {
    if (wasOpen.current === null) {
      wasOpen.current = !!view;
      return;
    }
    if (view) {
      const active = document.activeElement;
      if (active instanceof HTMLElement && active !== document.body && !panel.current?.contains(active))
        opener.current = active;
      heading.current?.focus();
    } else if (wasOpen.current && focusIsLost()) {
      if (opener.current?.isConnected) opener.current.focus();
      else focusMainHeading();
    }
    wasOpen.current = !!view;
  }, [view, botId]);

  if (!view) return null;
  const View = views[view];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.stopPropagation();
    sidePanel.send({ type: 'CLOSE' });
  };
  return (
    <aside ref={panel} className="side-panel" aria-labelledby="side-panel-title" onKeyDown={onKeyDown}>
      <div className="side-panel-header">
        <h2 id="side-panel-title" ref={heading} tabIndex={-1}>
          {t(titles[view])}
        </h2>
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
