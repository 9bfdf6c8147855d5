import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * The width of `ref`'s element in px, kept as it changes: measured before the first paint, so nothing
 * is drawn at `fallback` (the width where it cannot be measured, as in a test's DOM without layout).
 */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    setWidth(Math.round(element.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
