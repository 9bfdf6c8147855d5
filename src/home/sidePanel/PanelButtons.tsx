import { useSelector } from '@xstate/react';
import type { NotificationRecord } from '../../../machines/resource';
import type { SidePanelView } from '../../../machines/sidePanel';
import { useWorkspace } from '../../app/useWorkspace';
import { Icon } from '../../components/Icon';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';

/** Header buttons that open the side panel on one of its views. */
export function PanelButtons() {
  const { sidePanel, notifications } = useWorkspace();
  const t = useT();
  const format = useFormat();
  const unread = useSelector(
    notifications,
    (snapshot) =>
      ((snapshot.context.data as NotificationRecord[] | null) ?? []).filter((item) => !item.read).length,
  );
  const open = (view: SidePanelView) => sidePanel.send({ type: 'CHANGE_VIEW', view });
  const notificationsLabel =
    unread > 0 ? `${t('Notifications')} (${format.number(unread)} ${t('unread')})` : t('Notifications');
  return (
    <nav className="panel-buttons" aria-label={t('Side panel')}>
      <button
        type="button"
        className="icon-button"
        onClick={() => open('botFilter')}
        aria-label={t('Filter bots')}
      >
        <Icon name="filter" />
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => open('botList')}
        aria-label={t('Bot list')}
      >
        <Icon name="list" />
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => open('notifications')}
        aria-label={notificationsLabel}
      >
        <Icon name="bell" />
        {unread > 0 && (
          <span className="badge" aria-hidden="true">
            {format.number(unread)}
          </span>
        )}
      </button>
      <button type="button" className="icon-button" onClick={() => open('profile')} aria-label={t('Profile')}>
        <Icon name="user" />
      </button>
    </nav>
  );
}
