import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { TopicSummary } from '../../api/types';
import { useActors } from '../../app/ActorsContext';
import { T } from '../../i18n/T';
import { TopicItem } from './TopicItem';

/** The user's conversations, newest first, to resume, rename or delete. */
export function RecentTopics() {
  const { topics } = useActors();
  const items = useSelector(topics, (snapshot) => snapshot.context.data as TopicSummary[] | null);
  const failed = useSelector(topics, (snapshot) => snapshot.matches('failed'));
  const error = useSelector(topics, (snapshot) => snapshot.context.error);

  useEffect(() => {
    topics.send({ type: 'RELOAD' });
    topics.send({ type: 'LOAD' });
  }, [topics]);

  if (failed) {
    return (
      <div className="error-box" role="alert">
        <T>Could not load your conversations.</T>
        <button type="button" className="button small" onClick={() => topics.send({ type: 'RELOAD' })}>
          <T>Retry</T>
        </button>
      </div>
    );
  }
  if (!items || items.length === 0) return null;
  return (
    <section aria-labelledby="recent-topics-title">
      <h2 id="recent-topics-title">
        <T>Recent conversations</T>
      </h2>
      {error && (
        <p className="field-error" role="alert">
          <T>{error}</T>
        </p>
      )}
      <ul className="topic-list">
        {items.map((topic) => (
          <TopicItem key={topic._id} topic={topic} />
        ))}
      </ul>
    </section>
  );
}
