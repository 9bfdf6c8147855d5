import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { focusMainHeading } from '../components/focusMainHeading';

/** How long a screen that loads on demand may take to show its heading. */
const headingWait = 10_000;

/**
 * After a route change, focus goes to the new screen's main heading (WCAG 2.4.3), unless the screen
 * itself kept it (the composer of a chat its first message just created). Renders nothing.
 */
export function RouteFocus() {
  const [location] = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the new address is the trigger
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && active.closest('#main')) return;
    if (focusMainHeading()) return;
    // A screen that loads on demand shows its heading later; a user who moved on meanwhile keeps their place.
    const start = document.activeElement;
    const observer = new MutationObserver(() => {
      if (document.activeElement !== start && document.activeElement !== document.body) stop();
      else if (focusMainHeading()) stop();
    });
    const timer = setTimeout(() => stop(), headingWait);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    // Suspense shows a screen it kept hidden by its style attribute.
    observer.observe(document.body, { childList: true, subtree: true, attributeFilter: ['style'] });
    return stop;
  }, [location]);
  return null;
}
