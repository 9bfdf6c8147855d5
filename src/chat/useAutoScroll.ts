import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/** How close to the bottom (px) counts as back at the newest content when scrolling down. */
const followThreshold = 48;
/** Below this (px) from the bottom the view shows the newest content: rounding, not a person's scroll. */
const atEnd = 2;

/**
 * Keeps a scrolling container (`view`) on its newest content while the user follows along, and
 * leaves it alone once they scroll up to read something earlier; `jumpToLatest` follows again.
 *
 * It follows every change of size, not renders: the content grows after React is done with it (a
 * reply's actions appear when it completes, an image arrives, a message far from the view is laid
 * out at its real height only once it comes near it), and the view shrinks when the composer grows.
 */
export function useAutoScroll(view: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>) {
  const followingNow = useRef(true);
  const [following, setFollowing] = useState(true);

  useEffect(() => {
    const element = view.current;
    const inner = content.current;
    if (!element || !inner) return;
    let lastTop = element.scrollTop;
    // Only the person scrolling up leaves the newest content: the scroll event of our own pin can
    // arrive after the content grew again (far from the bottom though nobody moved), and the browser
    // moves the view up itself when a message above shrinks (it keeps what is on screen in place).
    const onScroll = () => {
      const gap = element.scrollHeight - element.scrollTop - element.clientHeight;
      if (element.scrollTop < lastTop && gap > atEnd) followingNow.current = false;
      else if (gap <= followThreshold) followingNow.current = true;
      lastTop = element.scrollTop;
      setFollowing(followingNow.current);
    };
    // Called after layout, before paint, at most once a frame: the height is already known, and a
    // long conversation is laid out once per token, not twice.
    const observer = new ResizeObserver(() => {
      if (followingNow.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(inner);
    observer.observe(element);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', onScroll);
    };
  }, [view, content]);

  const jumpToLatest = useCallback(() => {
    const element = view.current;
    if (!element) return;
    followingNow.current = true;
    setFollowing(true);
    element.scrollTop = element.scrollHeight;
  }, [view]);

  return { following, jumpToLatest };
}
