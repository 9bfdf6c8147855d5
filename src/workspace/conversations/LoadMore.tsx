import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { useT } from '../../i18n/useT';

/**
 * The end of a list with more to come: scrolled into view, it asks for the next page; its button does
 * the same from the keyboard. Watched afresh whenever the list grows, in case it is still in view.
 */
export function LoadMore({ count }: { count: number }) {
  const { conversations } = useWorkspace();
  const t = useT();
  const button = useRef<HTMLButtonElement>(null);
  const loading = useSelector(conversations, (snapshot) => snapshot.matches({ list: 'loadingMore' }));

  // biome-ignore lint/correctness/useExhaustiveDependencies: count is the trigger, not an input
  useEffect(() => {
    const element = button.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) conversations.send({ type: 'LOAD_MORE' });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [conversations, count]);

  return (
    <button
      ref={button}
      type="button"
      className="button small load-more"
      // Not `disabled`: the button keeps focus while the page loads (in the phone's drawer, focus lost
      // to the page would leave the drawer).
      aria-disabled={loading}
      onClick={() => loading || conversations.send({ type: 'LOAD_MORE' })}
    >
      {loading ? t('Loading…') : t('Show more')}
    </button>
  );
}
