import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { App } from '../../../src/App';
import { type AppEnvironment, createAppActors } from '../../../src/app/createAppActors';
import { createTranslationCache } from '../../../src/i18n/translationCache';
import { signUp, type TestServer } from '../../support/app';
import { type RunningServer, startServer } from '../../support/server';

/** The real server in its own process, API only, for the rendered app in jsdom to talk to. */
export const startApi = () =>
  startServer({
    STATIC_DIR: '',
    BUILTIN_TOKEN_DELAY_MS: '0',
    RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
  });

/** A fresh user of the real server, their token already stored as the browser would keep it. */
export async function loggedInUser(server: RunningServer, tenant = 'app') {
  const user = await signUp(server as unknown as TestServer, tenant);
  localStorage.setItem('token', user.token);
  return user;
}

/** Renders the whole app at `path`, wired to the real server, as main.tsx does in the browser. */
export async function renderApp(
  server: RunningServer,
  path: string,
  overrides: Partial<AppEnvironment> = {},
) {
  window.history.replaceState(null, '', path);
  const reloads: string[] = [];
  const savedFiles: { name: string; contents: string; type: string }[] = [];
  const actors = createAppActors({
    apiUrl: server.url,
    host: 'localhost:3000',
    search: window.location.search,
    production: false,
    defaultOrganization: 'app',
    storage: window.localStorage,
    translationCache: createTranslationCache(),
    navigate: (to, { replace }) =>
      replace ? window.history.replaceState(null, '', to) : window.history.pushState(null, '', to),
    reload: () => reloads.push(window.location.href),
    dropLanguageParameter: () => {
      const url = new URL(window.location.href);
      url.searchParams.delete('language');
      window.history.replaceState(null, '', url.href);
    },
    saveFile: (name, contents, type) => savedFiles.push({ name, contents, type }),
    applyTheme: (choice) => {
      if (choice === 'system') delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = choice;
    },
    registerWorker: async () => undefined,
    log: () => {},
    ...overrides,
  });
  const view = render(<App actors={actors} />);
  return { ...view, actors, reloads, savedFiles };
}

/** Waits for the screen to settle after an event (requests to the real server included). */
export async function settle(ms = 30) {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
}

export { screen };

/**
 * The real server for the tests of a file or describe block, started before them and stopped after;
 * the page and local storage are emptied after each test.
 */
export function apiServerForTests(): RunningServer {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await startApi();
  }, 120_000);
  afterAll(() => running?.stop());
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });
  const live = () => {
    if (!running) throw new Error('the API server has not started');
    return running;
  };
  return {
    get pid() {
      return live().pid;
    },
    get port() {
      return live().port;
    },
    get url() {
      return live().url;
    },
    get dataDir() {
      return live().dataDir;
    },
    output: () => live().output(),
    stop: () => live().stop(),
    crash: () => live().crash(),
  };
}
