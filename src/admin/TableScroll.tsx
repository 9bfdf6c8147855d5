import type { ReactNode } from 'react';

/**
 * A table wider than a phone scrolls inside this box, not the page; the box takes focus so the
 * keyboard can scroll it too (WCAG 2.1.1). A table whose rows have actions `stacks` instead: where the
 * box is narrow, each row is a card of lines, every action in view without scrolling sideways. A
 * stacked cell names its column with `data-label` (shown before it, not read twice by a screen
 * reader); the row's header cell is the card's title, and a cell without one (the actions) is shown
 * as it is.
 */
export function TableScroll({ children, stacks = false }: { children: ReactNode; stacks?: boolean }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <div className={stacks ? 'table-scroll stacks' : 'table-scroll'} tabIndex={0}>
      {children}
    </div>
  );
}
