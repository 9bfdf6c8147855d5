import type { ReactNode } from 'react';

/**
 * A table wider than a phone scrolls inside this box, not the page; the box takes focus so the
 * keyboard can scroll it too (WCAG 2.1.1).
 */
export function TableScroll({ children }: { children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <div className="table-scroll" tabIndex={0}>
      {children}
    </div>
  );
}
