import { useSelector } from '@xstate/react';
import { useWorkspace } from '../../app/useWorkspace';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useNow } from '../../i18n/useNow';
import { useT } from '../../i18n/useT';
import { ConversationRow } from './ConversationRow';
import { dateGroupLabels, groupByDate } from './dateGroups';
import { LoadMore } from './LoadMore';

/** The conversations by date, newest first; while searching, the matches, best first, with their passages. */
export function ConversationList() {
  const { conversations } = useWorkspace();
  const t = useT();
  const format = useFormat();
  const now = useNow();
  const items = useSelector(conversations, (snapshot) => snapshot.context.items);
  const searched = useSelector(conversations, (snapshot) => snapshot.context.shownQuery);
  const error = useSelector(conversations, (snapshot) => snapshot.context.error);
  const hasMore = useSelector(conversations, (snapshot) => snapshot.context.next !== null);
  const openId = useSelector(conversations, (snapshot) => snapshot.context.open?._id ?? null);
  const state = useSelector(conversations, (snapshot) => snapshot.value.list);
  // A pin or an archive that failed says why, until the next action.
  const changeError = useSelector(conversations, (snapshot) => snapshot.context.changeError);
  const settled = state === 'loaded' || state === 'loadingMore';
  const filter = useSelector(conversations, (snapshot) => snapshot.context.filter);

  if (state === 'failed') {
    return (
      <div className="error-box sidebar-error" role="alert">
        <span>{t(error ?? 'Could not load your conversations.')}</span>
        <button type="button" className="button small" onClick={() => conversations.send({ type: 'RETRY' })}>
          <T>Retry</T>
        </button>
      </div>
    );
  }
  const pinned = items.filter((item) => item.pinned);
  const sections = searched
    ? [{ key: 'results', label: t('Search results'), items }]
    : [
        ...(pinned.length ? [{ key: 'pinned', label: t('Pinned'), items: pinned }] : []),
        ...groupByDate(
          items.filter((item) => !item.pinned),
          now,
        ).map(({ group, items: grouped }) => ({
          key: group,
          label: t(dateGroupLabels[group]),
          items: grouped,
        })),
      ];
  const empty = filter.archived
    ? 'No archived conversations.'
    : filter.project
      ? 'No conversations in this project yet.'
      : 'No conversations yet.';

  return (
    <div className="conversation-list" aria-busy={!settled}>
      {searched && settled && (
        <p className="conversation-count" role="status">
          {items.length === 0
            ? t('No conversations match.')
            : `${t('Conversations found')}: ${format.number(items.length)}${hasMore ? '+' : ''}`}
        </p>
      )}
      {!searched && settled && items.length === 0 && <p className="empty">{t(empty)}</p>}
      {sections.map((section) => (
        <section key={section.key} aria-labelledby={`conversations-${section.key}`}>
          <h2 id={`conversations-${section.key}`} className="conversation-group">
            {section.label}
          </h2>
          <ul className="conversations">
            {section.items.map((item) => (
              <ConversationRow key={item._id} conversation={item} open={item._id === openId} />
            ))}
          </ul>
        </section>
      ))}
      {hasMore && <LoadMore count={items.length} />}
      {changeError && (
        <p className="field-error" role="alert">
          {t(changeError)}
        </p>
      )}
      {settled && error && (
        <p className="field-error" role="alert">
          {t(error)}
        </p>
      )}
    </div>
  );
}
