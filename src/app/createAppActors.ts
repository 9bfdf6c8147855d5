import { createActor, fromCallback, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { accountMachine } from '../../machines/account';
import { botsMachine } from '../../machines/bots';
import { languageMachine } from '../../machines/language';
import { organizationMachine } from '../../machines/organization';
import { sessionMachine } from '../../machines/session';
import type { ThemeChoice } from '../../machines/theme';
import { type TranslationEvent, translationMachine } from '../../machines/translation';
import { workerMachine } from '../../machines/worker';
import { createEncryptorLoader } from '../api/encryptor';
import { createEndpoints, type Endpoints } from '../api/endpoints';
import { createHttpClient } from '../api/http';
import type { TranslationCache } from '../i18n/translationCache';
import type { SharedConversationMachine } from './createSharedConversation';
import type { Workspace } from './createWorkspaceActors';
import { languageActions, organizationActions, sessionActions } from './machineActions';
import { createStoredValues } from './storedValues';

/** What the app needs from its surroundings: the browser in production, jsdom and a real server in tests. */
export interface AppEnvironment {
  /** Origin of the API; empty for the page's own. */
  apiUrl: string;
  host: string;
  search: string;
  production: boolean;
  /** The organization a `localhost…` host stands for (seed-spec §9). */
  defaultOrganization: string;
  storage: Storage;
  translationCache: TranslationCache;
  navigate: (to: string, options: { replace?: boolean }) => void;
  /** Reloads the page, without the `language` query parameter once it has been stored. */
  reload: () => void;
  /** Takes an unusable `language` query parameter out of the address, without a reload. */
  dropLanguageParameter: () => void;
  /** Hands a file to the browser to save ("Download my data", a conversation's export). */
  saveFile: (name: string, contents: string | Blob, type: string) => void;
  /** Shows the page in the colour scheme chosen (none: the system's). */
  applyTheme: (choice: ThemeChoice) => void;
  /** Makes the organization's brand colour the app's accent (none: Parley's own). */
  applyBrand?: (color: string | null) => void;
  registerWorker: () => Promise<unknown>;
  log: (message: string, error?: unknown) => void;
  /** The Stately inspector, in development with `?inspect` only. */
  inspect?: Observer<InspectionEvent>;
}

/** Starts every app-wide actor once, with its effects, and wires their emitted events to the page. */
export function createAppActors(env: AppEnvironment) {
  const stored = createStoredValues(env.storage);
  const inspect = env.inspect;
  let reportUnauthorized: (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') => void = () => {};
  const http = createHttpClient({
    baseURL: env.apiUrl,
    getToken: stored.token.get,
    getOrganization: () => stored.currentOrganization.get()?.subdomain ?? null,
    getHost: () => env.host,
    onUnauthorized: (method) => reportUnauthorized(method),
    loadEncrypt: createEncryptorLoader(() => api.publicKey()),
  });
  const api: Endpoints = createEndpoints(http);

  const bots = createActor(botsMachine.provide({ actors: { fetchBots: fromPromise(() => api.bots()) } }), {
    inspect,
  });

  const session = createActor(
    sessionMachine.provide({
      actors: {
        verifyToken: fromPromise(async () => ({ verified: Number((await api.verify()).verified) })),
        loadUser: fromPromise(async ({ input }) => {
          const cached = input.force ? null : stored.currentUser.get();
          return cached ?? (await api.me());
        }),
        signup: fromPromise(({ input }) => api.signup(input)),
        login: fromPromise(({ input }) => api.login(input)),
        exchangeSsoCode: fromPromise(({ input }) => api.exchangeSsoCode(input.code)),
        requestOtp: fromPromise(({ input }) => api.requestOtp(input.email)),
        logout: fromPromise(async () => {
          await api.logout();
        }),
      },
      actions: sessionActions(stored, () => bots.send({ type: 'LOAD' })),
    }),
    { input: { token: stored.token.get(), user: stored.currentUser.get() }, inspect },
  );
  reportUnauthorized = (method) => session.send({ type: 'UNAUTHORIZED', method });

  const account = createActor(
    accountMachine.provide({
      actors: {
        updateProfile: fromPromise(({ input }) => api.updateMe(input)),
        changePassword: fromPromise(({ input }) => api.changePassword(input)),
        logoutEverywhere: fromPromise(async () => {
          await api.logoutEverywhere();
        }),
        exportData: fromPromise(async () => {
          const data = await api.exportMe();
          env.saveFile(
            `parley-${data.account.username}.json`,
            JSON.stringify(data, null, 2),
            'application/json',
          );
        }),
        deleteAccount: fromPromise(({ input }) => api.deleteMe(input)),
        sendResetCode: fromPromise(({ input }) => api.forgotPassword(input.email)),
        resetPassword: fromPromise(({ input }) => api.resetPassword(input)),
      },
    }),
    { inspect },
  );
  // The session owns the token and the user: what the account's calls change, it is told.
  account.on('*', (event) => session.send(event));

  const organization = createActor(
    organizationMachine.provide({
      actors: {
        fetchOrganization: fromPromise(({ input }) => api.organization(input.subdomain)),
      },
      actions: organizationActions(stored, env.log),
    }),
    { input: { host: env.host, defaultOrganization: env.defaultOrganization }, inspect },
  );

  const language = createActor(
    languageMachine.provide({
      actions: languageActions(stored, env.reload, env.dropLanguageParameter),
    }),
    { input: { storedLanguage: stored.language.get(), search: env.search }, inspect },
  );

  const translation = createActor(
    translationMachine.provide({
      actors: {
        readCache: fromPromise(async ({ input }) =>
          Object.fromEntries(await env.translationCache.readLanguage(input.language)),
        ),
        translateText: fromCallback<TranslationEvent, { text: string; language: string }>(
          ({ input, sendBack }) => {
            api.translate(input.text, input.language).then(
              (answer) =>
                sendBack(
                  'text' in answer && answer.translated
                    ? { type: 'TRANSLATED', text: input.text, translation: answer.text }
                    : { type: 'NOT_TRANSLATED', text: input.text },
                ),
              (error) => sendBack({ type: 'NOT_TRANSLATED', text: input.text, error }),
            );
          },
        ),
        writeCache: fromPromise(({ input }) => env.translationCache.write(input.records)),
      },
      actions: {
        logError: ({ event }) => {
          if ('error' in event && event.error) env.log('Translation cache or lookup failed', event.error);
        },
      },
    }),
    { input: { language: language.getSnapshot().context.language }, inspect },
  );

  const worker = createActor(
    workerMachine.provide({
      actors: { registerWorker: fromPromise(() => env.registerWorker()) },
      actions: {
        logError: ({ event }) =>
          env.log('Worker registration failed', 'error' in event ? event.error : undefined),
      },
    }),
    { input: { production: env.production }, inspect },
  );

  session.on('navigate', ({ to, replace }) => env.navigate(to, { replace }));
  // The next user must not see the last one's account feedback.
  session.subscribe((snapshot) => {
    if (snapshot.matches({ auth: 'loggedOut' })) account.send({ type: 'SESSION_ENDED' });
  });

  const applyBrand = env.applyBrand ?? (() => {});
  let workspace: Promise<Workspace> | null = null;
  /**
   * The logged-in half of the composition root (side panel, balance, notifications, conversations,
   * colour scheme, chat effects) comes with the first logged-in screen, so the landing page does not
   * carry it; it is started once.
   */
  const loadWorkspace = () => {
    workspace ??= import('./createWorkspaceActors').then(({ createWorkspaceActors }) =>
      createWorkspaceActors({
        http,
        env: { ...env, applyBrand },
        stored,
        session,
        bots,
        // Asked for afresh: the organization check does not look the `app` label up (seed-spec §4),
        // and an admin may have changed the colour since the page loaded.
        organization: () => api.organization(organization.getSnapshot().context.subdomain),
        inspect,
      }),
    );
    return workspace;
  };

  // The organization's brand colour is the accent as soon as the organization check knows it (the
  // `app` label's comes with the first logged-in screen, from the workspace).
  organization.subscribe((snapshot) => {
    if (snapshot.context.organization) applyBrand(snapshot.context.organization.brandColor ?? null);
  });

  let sharedConversation: Promise<SharedConversationMachine> | null = null;
  /** The machine of a shared link's page, with its effects: loaded with that page. */
  const loadSharedConversation = () => {
    sharedConversation ??= import('./createSharedConversation').then(({ createSharedConversation }) =>
      createSharedConversation({
        api,
        env,
        checkSession: (returnUrl) => session.send({ type: 'CHECK', returnUrl }),
      }),
    );
    return sharedConversation;
  };

  const actors = {
    session,
    sharedConversation: loadSharedConversation,
    account,
    organization,
    bots,
    language,
    translation,
    worker,
    workspace: loadWorkspace,
    /** What the admin area's composition root (in its own chunk) builds on. */
    services: { http, api, env: { ...env, applyBrand }, inspect },
  };
  // Listed as what they share: a union of seven actor types is too complex for the compiler.
  const running: { start(): void }[] = [bots, session, account, organization, language, translation, worker];
  for (const actor of running) actor.start();
  return actors;
}

export type AppActors = ReturnType<typeof createAppActors>;
