import { type RefObject, useEffect, useRef } from 'react';

/** How close to the bottom (px) still counts as "following" the conversation. */
const followThreshold = 48;

/**
 * Keeps a scrolling container pinned to its newest content while the user follows along, and
 * leaves it alone once they scroll up to read something earlier.
 */
export function useAutoScroll(container: RefObject<HTMLElement | null>, content: unknown) {
  const following = useRef(true);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const onScroll = () => {
      following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= followThreshold;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [container]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: content is the trigger, not an input
  useEffect(() => {
    const element = container.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [content, container]);
}
