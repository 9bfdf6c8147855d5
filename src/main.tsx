import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate } from 'wouter/use-browser-location';
import type { InspectionEvent, Observer } from 'xstate';
import type { ThemeChoice } from '../machines/theme';
import { App } from './App';
import { applyBrandColor } from './app/brand';
import { createAppActors } from './app/createAppActors';
import { createTranslationCache } from './i18n/translationCache';
import { registerWorker } from './pwa/registerWorker';
import { whenStable } from './pwa/whenStable';
import './styles/global.css';

function addressWithoutLanguage(): string {
  const url = new URL(window.location.href);
  url.searchParams.delete('language');
  return url.href;
}

function reloadWithoutLanguageParameter() {
  const address = addressWithoutLanguage();
  // replace(): the ?language= address must not come back with the Back button and loop.
  if (address === window.location.href) window.location.reload();
  else window.location.replace(address);
}

function saveFile(name: string, contents: string | Blob, type: string) {
  const url = URL.createObjectURL(new Blob([contents], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Revoking at once can cancel the download in some browsers; a minute is plenty to start it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The chosen colour scheme on the page; "system" leaves it to prefers-color-scheme (public/theme.js did this before the first paint). */
function applyTheme(choice: ThemeChoice) {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

async function start() {
  // Development only: `?inspect` connects the Stately inspector; production builds drop this branch.
  let inspect: Observer<InspectionEvent> | undefined;
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect')) {
    const { createInspector, showOpenButton } = await import('./dev/inspect');
    const inspector = createInspector();
    inspect = inspector.inspect;
    showOpenButton(inspector.open);
  }
  const actors = createAppActors({
    apiUrl: import.meta.env.VITE_API_URL ?? '',
    host: window.location.host,
    search: window.location.search,
    production: import.meta.env.PROD,
    defaultOrganization: import.meta.env.VITE_DEFAULT_ORGANIZATION ?? 'app',
    storage: window.localStorage,
    translationCache: createTranslationCache(),
    navigate: (to, { replace }) => navigate(to, { replace }),
    reload: reloadWithoutLanguageParameter,
    dropLanguageParameter: () =>
      window.history.replaceState(window.history.state, '', addressWithoutLanguage()),
    saveFile,
    applyTheme,
    applyBrand: (color) => applyBrandColor(document.documentElement.style, color),
    registerWorker,
    // Failures the app handles (seed-spec §8: only logged) are warnings; errors are for what it does not.
    log: (message, error) => console.warn(message, error),
    inspect,
  });
  whenStable(() => actors.worker.send({ type: 'STABLE' }));

  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App actors={actors} />
    </StrictMode>,
  );
}

// Seed-spec §8: a bootstrap failure is only logged.
start().catch((error) => console.error('Parley could not start', error));
