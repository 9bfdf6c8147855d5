import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import type { TopicSummary } from '../../api/types';
import { useActors } from '../../app/ActorsContext';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/** One conversation: open it, rename it in place, or delete it after confirming. */
export function TopicItem({ topic }: { topic: TopicSummary }) {
  const { topics } = useActors();
  const t = useT();
  const titleId = useId();
  const [mode, setMode] = useState<'view' | 'rename' | 'confirmDelete'>('view');
  const [title, setTitle] = useState(topic.title);
  const [error, setError] = useState<string | null>(null);

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setError('Enter a title.');
      return;
    }
    topics.send({ type: 'CHANGE', change: { kind: 'rename', id: topic._id, title: title.trim() } });
    setMode('view');
  };

  if (mode === 'rename') {
    return (
      <li className="topic-item">
        <form className="field-row" onSubmit={rename}>
          <div className="field">
            <label htmlFor={titleId}>
              <T>New title</T>
            </label>
            <input
              id={titleId}
              value={title}
              maxLength={200}
              aria-invalid={error ? true : undefined}
              onChange={(event) => setTitle(event.target.value)}
            />
            {error && <p className="field-error">{t(error)}</p>}
          </div>
          <button type="submit" className="button small primary">
            <T>Save</T>
          </button>
          <button type="button" className="button small" onClick={() => setMode('view')}>
            <T>Cancel</T>
          </button>
        </form>
      </li>
    );
  }

  return (
    <li className="topic-item">
      <Link href={`/topics/${topic._id}`}>
        <strong>{topic.title}</strong> · {topic.bot.name}
        {topic.lastMessage && <span className="topic-preview">{topic.lastMessage}</span>}
      </Link>
      {mode === 'confirmDelete' ? (
        <>
          <span>
            <T>Delete this conversation?</T>
          </span>
          <button
            type="button"
            className="button small"
            onClick={() => topics.send({ type: 'CHANGE', change: { kind: 'delete', id: topic._id } })}
          >
            <T>Yes, delete</T>
          </button>
          <button type="button" className="button small" onClick={() => setMode('view')}>
            <T>Keep</T>
          </button>
        </>
      ) : (
        <>
          <button
            type="button"
            className="button small"
            onClick={() => setMode('rename')}
            aria-label={`${t('Rename')} ${topic.title}`}
          >
            {t('Rename')}
          </button>
          <button
            type="button"
            className="button small"
            onClick={() => setMode('confirmDelete')}
            aria-label={`${t('Delete')} ${topic.title}`}
          >
            {t('Delete')}
          </button>
        </>
      )}
    </li>
  );
}
