import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/** How close to the bottom (px) still counts as "following" the conversation. */
const followThreshold = 48;

/**
 * Keeps a scrolling container pinned to its newest content while the user follows along, and leaves
 * it alone once they scroll up to read something earlier; `jumpToLatest` pins it again, and
 * `keepFollowing` follows content that grows without the list rendering again (a streamed reply).
 */
export function useAutoScroll(container: RefObject<HTMLElement | null>, content: unknown) {
  const followingNow = useRef(true);
  const [following, setFollowing] = useState(true);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let lastTop = element.scrollTop;
    // Only scrolling up leaves the newest content: the scroll event of our own pin can arrive after
    // the reply grew again, far from the bottom though nobody moved.
    const onScroll = () => {
      const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= followThreshold;
      if (atBottom) followingNow.current = true;
      else if (element.scrollTop < lastTop) followingNow.current = false;
      lastTop = element.scrollTop;
      setFollowing(followingNow.current);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [container]);

  /**
   * Pins the newest content again if the user follows along: for content that grows on its own. At
   * most once a frame: reading the height lays the page out, and a long conversation is costly to
   * lay out once per token.
   */
  const frame = useRef(0);
  const keepFollowing = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const element = container.current;
      if (element && followingNow.current) element.scrollTop = element.scrollHeight;
    });
  }, [container]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: content is the trigger, not an input
  useEffect(keepFollowing, [content, keepFollowing]);

  const jumpToLatest = useCallback(() => {
    const element = container.current;
    if (!element) return;
    followingNow.current = true;
    setFollowing(true);
    element.scrollTop = element.scrollHeight;
  }, [container]);

  return { following, jumpToLatest, keepFollowing };
}
