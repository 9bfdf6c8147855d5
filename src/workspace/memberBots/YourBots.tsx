import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/**
 * The member's own bots above the catalogue, each to edit or delete, and Make a bot: while the
 * organization lets members make bots (or they still have some, to delete).
 */
export function YourBots() {
  const { memberBots, organizationDetails } = useWorkspace();
  const t = useT();
  const allowed = useSelector(organizationDetails, (snapshot) => snapshot.context.data?.memberBots ?? false);
  const items = useSelector(memberBots, (snapshot) => snapshot.context.items);
  const failed = useSelector(memberBots, (snapshot) => snapshot.matches({ list: 'failed' }));
  const error = useSelector(memberBots, (snapshot) => snapshot.context.error);

  useEffect(() => {
    if (allowed) memberBots.send({ type: 'LOAD' });
  }, [allowed, memberBots]);

  if (!allowed && !items.length) return null;
  return (
    <section className="your-bots" aria-labelledby="your-bots-heading">
      <div className="projects-top">
        <h3 id="your-bots-heading">
          <T>Your bots</T>
        </h3>
        {allowed && (
          <button type="button" className="button small" onClick={() => memberBots.send({ type: 'NEW' })}>
            <T>Make a bot</T>
          </button>
        )}
      </div>
      {failed && (
        <div className="error-box" role="alert">
          <span>{t(error ?? 'Could not load your bots.')}</span>
          <button type="button" className="button small" onClick={() => memberBots.send({ type: 'RETRY' })}>
            <T>Retry</T>
          </button>
        </div>
      )}
      {items.length > 0 && (
        <ul className="your-bot-list">
          {items.map((bot) => (
            <li key={bot._id}>
              <Bdi text={bot.name} />
              {bot.retired && (
                <span className="project-shared">
                  <T>Retired</T>
                </span>
              )}
              <span className="your-bot-actions">
                {allowed && (
                  <button
                    type="button"
                    className="button small"
                    aria-label={`${t('Edit')} ${bot.name}`}
                    onClick={() => memberBots.send({ type: 'EDIT', bot })}
                  >
                    <T>Edit</T>
                  </button>
                )}
                <button
                  type="button"
                  className="button small"
                  aria-label={`${t('Delete')} ${bot.name}`}
                  onClick={() => memberBots.send({ type: 'ASK_DELETE', bot })}
                >
                  <T>Delete</T>
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
