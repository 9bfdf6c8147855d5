/**
 * The page's main heading: the first shown `h1` of `<main>`, made focusable from script (tabindex -1),
 * not by Tab.
 */
export function mainHeading(): HTMLElement | null {
  const headings = [...document.querySelectorAll<HTMLElement>('#main h1')];
  const heading = headings.find((element) => element.checkVisibility?.() ?? true) ?? null;
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}

/** Moves focus to the main heading, so a screen reader reads where the user now is; false if it could not. */
export function focusMainHeading(): boolean {
  const heading = mainHeading();
  heading?.focus();
  return !!heading && document.activeElement === heading;
}

/** Whether focus is lost: on nothing, on the body, or on an element no longer in the page. */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}
