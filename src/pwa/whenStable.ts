/**
 * Calls back once the page has loaded and the browser is idle: the app is "stable" (seed-spec §4),
 * so the worker's precaching does not compete with the first paint and the first requests.
 */
export function whenStable(callback: () => void): () => void {
  let cancelled = false;
  const idle = () => {
    if (cancelled) return;
    if ('requestIdleCallback' in window) window.requestIdleCallback(() => cancelled || callback());
    else setTimeout(() => cancelled || callback(), 0);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', idle);
  };
}
