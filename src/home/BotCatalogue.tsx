import { useSelector } from '@xstate/react';
import { useId, useMemo, useState } from 'react';
import { filterBots } from '../../machines/bots';
import { useActors } from '../app/ActorsContext';
import { useWorkspace } from '../app/useWorkspace';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { YourBots } from '../workspace/memberBots/YourBots';
import { BotCard } from './BotCard';
import { CategoryFilter } from './CategoryFilter';
import { categoriesOf } from './categoriesOf';
import { groupCatalogue } from './groupCatalogue';
import { platformLabel } from './platformLabel';
import { useBilling } from './useBilling';

/**
 * The catalogue: active bots, narrowed by category and name, grouped by platform, then members' own
 * ("Mine", "Made by members"); above them, the member's own bots to edit and Make a bot.
 */
export function BotCatalogue() {
  const { bots, session } = useActors();
  const me = useSelector(session, (snapshot) => snapshot.context.user?._id ?? null);
  const { sidePanel } = useWorkspace();
  const t = useT();
  const searchId = useId();
  const status = useSelector(bots, (snapshot) => snapshot.value);
  const all = useSelector(bots, (snapshot) => snapshot.context.bots);
  const categoryIds = useSelector(bots, (snapshot) => snapshot.context.categoryIds);
  const error = useSelector(bots, (snapshot) => snapshot.context.error);
  const currency = useBilling().billing?.currency ?? 'EUR';
  const [query, setQuery] = useState('');

  const groups = useMemo(() => {
    const needle = query.trim().toLocaleLowerCase();
    const shown = filterBots(all, categoryIds).filter(
      (bot) => !needle || bot.name.toLocaleLowerCase().includes(needle),
    );
    return groupCatalogue(shown, me);
  }, [all, categoryIds, query, me]);

  return (
    <section aria-labelledby={`${searchId}-title`}>
      <h2 id={`${searchId}-title`}>
        <T>Bots</T>
      </h2>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={searchId}>
            <T>Search bots</T>
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <div className="desktop-only">
          <CategoryFilter
            categories={categoriesOf(all)}
            selected={categoryIds}
            onChange={(selected) => bots.send({ type: 'FILTER', categoryIds: selected })}
          />
        </div>
      </div>
      <YourBots />
      {(status === 'idle' || status === 'loading') && (
        <div className="bot-grid" aria-busy="true">
          <div className="skeleton" />
          <div className="skeleton" />
          <div className="skeleton" />
          <span className="visually-hidden">
            <T>Loading…</T>
          </span>
        </div>
      )}
      {status === 'failed' && (
        <div className="error-box" role="alert">
          <span>{t(error ?? 'Could not load the bots')}</span>
          <button type="button" className="button small" onClick={() => bots.send({ type: 'RETRY' })}>
            <T>Retry</T>
          </button>
        </div>
      )}
      {status === 'loaded' && groups.length === 0 && (
        <p className="empty">
          <T>No bots match. Try another category or name.</T>
        </p>
      )}
      {groups.map((group) => (
        <section key={group.key} className="bot-group" aria-label={t(platformLabel(group.key))}>
          <h3>{t(platformLabel(group.key))}</h3>
          <ul className="bot-grid">
            {group.bots.map((bot) => (
              <BotCard
                key={bot._id}
                bot={bot}
                currency={currency}
                onShowDetails={(chosen) => sidePanel.send({ type: 'SHOW_BOT', botId: chosen._id })}
              />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
