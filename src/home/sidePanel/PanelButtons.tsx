import { useSelector } from '@xstate/react';
import { type SidePanelView, showViewEvents } from '../../../machines/sidePanel';
import { useWorkspace } from '../../app/useWorkspace';
import { Icon } from '../../components/Icon';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { shownView } from './SidePanel';

/** Header buttons that open the side panel on one of its views, or on the last one. */
export function PanelButtons() {
  const { sidePanel, notifications } = useWorkspace();
  const t = useT();
  const format = useFormat();
  const unread = useSelector(
    notifications,
    (snapshot) => (snapshot.context.data ?? []).filter((item) => !item.read).length,
  );
  // The button of the view on show closes the panel; any other shows its own view.
  const shown = useSelector(sidePanel, shownView);
  const toggle = (view: SidePanelView) =>
    sidePanel.send({ type: shown === view ? 'TOGGLE' : showViewEvents[view] });
  return (
    <nav className="panel-buttons" aria-label={t('Side panel')}>
      <button
        type="button"
        className="icon-button"
        onClick={() => toggle('botFilter')}
        aria-label={t('Filter bots')}
        aria-expanded={shown === 'botFilter'}
      >
        <Icon name="filter" />
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => toggle('botList')}
        aria-label={t('Bot list')}
        aria-expanded={shown === 'botList'}
      >
        <Icon name="list" />
      </button>
      {/* Named by its text, the badge's number included, so what is seen is what is said (WCAG 2.5.3). */}
      <button
        type="button"
        className="icon-button"
        onClick={() => toggle('notifications')}
        aria-expanded={shown === 'notifications'}
      >
        <Icon name="bell" />
        <span className="visually-hidden">{t('Notifications')}</span>
        {unread > 0 && (
          <>
            <span className="visually-hidden"> (</span>
            <span className="badge">{format.number(unread)}</span>
            <span className="visually-hidden"> {t('unread')})</span>
          </>
        )}
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => toggle('profile')}
        aria-label={t('Profile')}
        aria-expanded={shown === 'profile'}
      >
        <Icon name="user" />
      </button>
      {/* Opens the panel on the view it showed last, or closes it (the spec's TOGGLE). */}
      <button
        type="button"
        className="icon-button"
        onClick={() => sidePanel.send({ type: 'TOGGLE' })}
        aria-label={t('Side panel')}
        aria-expanded={shown !== null}
      >
        <Icon name="panel" />
      </button>
    </nav>
  );
}
