// Runs before the first paint: the colour scheme chosen in the Profile view (kept in local storage by
// the app) is on the page before anything is drawn, so it never flashes white. No choice: the CSS
// follows prefers-color-scheme by itself.
try {
  const theme = localStorage.getItem('theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // Storage may be blocked: the system preference applies.
}
