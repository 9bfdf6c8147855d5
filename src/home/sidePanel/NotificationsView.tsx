import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { textDir } from '../../i18n/bidi';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/** The user's notifications, newest first, each marked read on request. */
export function NotificationsView() {
  const { notifications } = useWorkspace();
  const t = useT();
  const items = useSelector(notifications, (snapshot) => snapshot.context.data);
  const failed = useSelector(notifications, (snapshot) => snapshot.matches('failed'));
  useEffect(() => {
    notifications.send({ type: 'RELOAD' });
    notifications.send({ type: 'LOAD' });
  }, [notifications]);

  if (failed) {
    return (
      <div className="error-box" role="alert">
        <T>Could not load your notifications.</T>
        <button type="button" className="button small" onClick={() => notifications.send({ type: 'RELOAD' })}>
          <T>Retry</T>
        </button>
      </div>
    );
  }
  if (!items) return <p className="empty">{t('Loading…')}</p>;
  if (items.length === 0) return <p className="empty">{t('No notifications.')}</p>;
  return (
    <ul className="notifications">
      {items.map((item) => (
        <li key={item._id} className={item.read ? 'notification' : 'notification unread'}>
          {/* Untranslated, a notification is English in any page: each line takes its own direction. */}
          <h3>
            <Bdi text={t(item.title)} />
            {!item.read && <span className="visually-hidden"> ({t('unread')})</span>}
          </h3>
          <p dir={textDir(t(item.body))}>{t(item.body)}</p>
          {!item.read && (
            <button
              type="button"
              className="button small"
              onClick={() => notifications.send({ type: 'CHANGE', change: item._id })}
            >
              {t('Mark as read')}
              <span className="visually-hidden">: {t(item.title)}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
