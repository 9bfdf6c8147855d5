import { expect } from 'vitest';
import { type AnyMachineSnapshot, type EventObject, fromCallback, fromPromise } from 'xstate';
import { accountMachine } from '../../machines/account';
import { botsMachine } from '../../machines/bots';
import { conversationsMachine } from '../../machines/conversations';
import { knownLanguages, languageMachine } from '../../machines/language';
import { organizationMachine } from '../../machines/organization';
import { resourceMachine } from '../../machines/resource';
import { isSameSitePath, sessionMachine } from '../../machines/session';
import {
  profileFlagsOf,
  type SidePanelView,
  shownViewOf,
  showViewEvents,
  sidePanelMachine,
} from '../../machines/sidePanel';
import { themeMachine } from '../../machines/theme';
import { topicMachine } from '../../machines/topic';
import { translationMachine } from '../../machines/translation';
import { workerMachine } from '../../machines/worker';
import { languageActions, organizationActions, sessionActions } from '../../src/app/machineActions';
import { createStoredValues } from '../../src/app/storedValues';
import { themeActions } from '../../src/app/themeActions';
import type { MachineModel, ModelEvent, World } from './harness';

// Invoked actors never settle on their own in these paths: the generated events say how they end.
const pending = () => fromPromise(() => new Promise<never>(() => {})) as never;
const silent = () => fromCallback(() => {}) as never;
export const done = (id: string, output?: unknown): ModelEvent => ({
  type: `xstate.done.actor.${id}`,
  output,
});
export const failed = (id: string): ModelEvent => ({
  type: `xstate.error.actor.${id}`,
  error: new Error(`${id} failed`),
});
/** A failure the server tied to a form field, as the HTTP client reports it. */
export const failedOn = (id: string, field: string): ModelEvent => ({
  type: `xstate.error.actor.${id}`,
  error: Object.assign(new Error(`${id} refused ${field}`), { field }),
});
/** An invoked promise that records the input it was started with, and never settles on its own. */
export const recording = (world: World, id: string) =>
  fromPromise(({ input }) => {
    world.calls.push(`${id} ${JSON.stringify(input ?? null)}`);
    return new Promise<never>(() => {});
  }) as never;
const lastEmitted = (world: World) =>
  world.emitted.at(-1) as { type: string; to?: string; title?: string; message?: string } | undefined;
const log = (world: World) => (message: string) => world.calls.push(`log: ${message}`);

const user = { _id: 'u1', displayName: 'Ada Lovelace', username: 'ada' };
const renamed = { ...user, displayName: 'Ada King' };

export const sessionModel: MachineModel = {
  name: 'session',
  provide: (world) =>
    sessionMachine.provide({
      actors: {
        verifyToken: pending(),
        loadUser: pending(),
        signup: fromPromise(() => {
          world.calls.push('signup');
          return new Promise<never>(() => {});
        }) as never,
        login: pending(),
        requestOtp: pending(),
        logout: recording(world, 'logout'),
      },
      actions: sessionActions(createStoredValues(world.storage), () => world.calls.push('requestBots')),
    }),
  inputs: [
    { token: null, user: null },
    { token: 'stored-token', user: null },
  ],
  prepare: (world, input) => {
    const { token } = input as { token: string | null };
    if (token) world.storage.setItem('token', token);
  },
  events: [
    { type: 'CHECK', returnUrl: '/list?from=mail' },
    {
      type: 'SIGNUP',
      username: 'ada',
      displayName: 'Ada',
      email: 'ada@example.org',
      password: 'secret-1',
      otp: '123456',
    },
    {
      type: 'SIGNUP',
      username: 'ada',
      displayName: 'Ada',
      email: 'ada@example.org',
      password: 'secret-1',
      otp: ' ',
    },
    {
      type: 'SIGNUP',
      username: 'ada',
      displayName: 'Ada',
      email: 'ada at example',
      password: 'secret-1',
      otp: '123456',
    },
    { type: 'LOGIN', email: 'ada@example.org', password: 'secret-1' },
    { type: 'LOGIN', email: 'ada@example.org', password: '' },
    { type: 'REQUEST_OTP', email: 'ada@example.org' },
    { type: 'REQUEST_OTP', email: 'not an email' },
    { type: 'LOGOUT' },
    { type: 'UNAUTHORIZED', method: 'GET' },
    { type: 'UNAUTHORIZED', method: 'PATCH' },
    { type: 'UNAUTHORIZED', method: 'DELETE' },
    done('verifyToken', { verified: 1 }),
    done('verifyToken', { verified: 0 }),
    failed('verifyToken'),
    done('loadUser', user),
    failed('loadUser'),
    done('signup', 'new-token'),
    failed('signup'),
    done('login', 'new-token'),
    failed('login'),
    failedOn('signup', 'username'),
    done('requestOtp', { sent: true }),
    failed('requestOtp'),
    done('logout'),
    failed('logout'),
    { type: 'xstate.after.logoutTimeout.session.auth.loggingOut' },
    { type: 'SIGNED_IN', token: 'reset-token' },
    { type: 'TOKEN_RENEWED', token: 'renewed-token' },
    { type: 'SIGNED_OUT' },
    { type: 'USER_UPDATED', user: renamed },
  ],
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      // Which token or user it is, the checks see on each path; the graph needs only whether there is one.
      snapshot.context.token !== null,
      !!snapshot.context.user,
      snapshot.context.returnUrl,
      !!snapshot.context.codeEmail,
      snapshot.context.fieldError?.field ?? null,
    ]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    // The stored token is always the machine's token: no token means logged out.
    expect(world.storage.getItem('token')).toBe(context.token);
    if (context.token === null) expect(snapshot.matches({ auth: 'loggedIn' })).toBe(false);
    if (snapshot.matches({ auth: 'loggedIn' }))
      expect(JSON.parse(world.storage.getItem('currentUser') ?? 'null')).toEqual(context.user);
    if (snapshot.matches({ auth: 'loadingUser' })) expect(world.calls).toContain('requestBots');
    for (const emitted of world.emitted as { type: string; to?: string; title?: string }[]) {
      if (emitted.type === 'navigate') expect(isSameSitePath(emitted.to ?? null)).toBe(true);
      if (emitted.type === 'alert') expect(emitted.title).toBe('Error');
    }
    const last = lastEmitted(world);
    if (event?.type === 'SIGNUP' && (event as unknown as { email: string }).email === 'ada at example') {
      expect(last).toMatchObject({ type: 'alert', message: 'Invalid email address' });
    }
    // Signup and login are offered only to a visitor not known to be logged in.
    const signedOut = snapshot.matches({ auth: 'loggedOut' }) || snapshot.matches({ auth: 'unverified' });
    expect(snapshot.can({ type: 'LOGIN', email: 'ada@example.org', password: 'secret-1' })).toBe(signedOut);
    // At most one signup call per complete, valid SIGNUP, and only for one: an invalid one makes no call.
    const isValidSignup = (sent: ModelEvent) =>
      sent.type === 'SIGNUP' &&
      !!(sent as unknown as { otp: string }).otp.trim() &&
      (sent as unknown as { email: string }).email.includes('@');
    expect(world.calls.filter((call) => call === 'signup').length).toBeLessThanOrEqual(
      world.sent.filter(isValidSignup).length,
    );
    if (event?.type === 'SIGNUP' && snapshot.matches({ auth: 'signingUp' })) {
      expect(isValidSignup(event)).toBe(true);
      expect(world.calls.at(-1)).toBe('signup');
    }
    // A refused signup or login leaves the visitor logged out, with nothing stored.
    if (event?.type === 'xstate.error.actor.signup' || event?.type === 'xstate.error.actor.login') {
      expect(snapshot.matches({ auth: 'loggedOut' })).toBe(true);
      expect(world.storage.getItem('token')).toBeNull();
    }
    if (event?.type === 'CHECK' && snapshot.matches({ auth: 'loggedOut' })) {
      expect(last).toEqual({
        type: 'navigate',
        to: '/landing?returnUrl=%2Flist%3Ffrom%3Dmail',
        replace: true,
      });
      expect(world.storage.getItem('currentUser')).toBeNull();
    }
    if (
      event?.type === 'xstate.done.actor.verifyToken' &&
      (event as unknown as { output: { verified: number } }).output.verified !== 1
    ) {
      expect(context.token).toBeNull();
      expect(last).toMatchObject({ type: 'navigate', to: expect.stringMatching(/^\/landing/) });
    }
    // Logout revokes the token on the server first, and forgets it whether that worked or not.
    if (event?.type === 'LOGOUT') {
      expect(snapshot.matches({ auth: 'loggingOut' })).toBe(true);
      expect(world.calls.at(-1)).toBe('logout null');
      expect(context.token).not.toBeNull();
    }
    if (
      event?.type === 'xstate.done.actor.logout' ||
      event?.type === 'xstate.error.actor.logout' ||
      event?.type === 'xstate.after.logoutTimeout.session.auth.loggingOut' ||
      event?.type === 'SIGNED_OUT'
    ) {
      expect(snapshot.matches({ auth: 'loggedOut' })).toBe(true);
      expect(context.token).toBeNull();
      expect(world.storage.getItem('currentUser')).toBeNull();
      expect(last).toEqual({ type: 'navigate', to: '/landing' });
    }
    if (event?.type === 'SIGNED_IN') {
      expect(context.token).toBe('reset-token');
      expect(snapshot.matches({ auth: 'loadingUser' })).toBe(true);
      expect(last).toMatchObject({ type: 'navigate', to: context.returnUrl ?? '/list' });
    }
    if (event?.type === 'TOKEN_RENEWED') {
      expect(context.token).toBe('renewed-token');
      expect(snapshot.matches({ auth: 'loggedIn' })).toBe(true);
    }
    if (event?.type === 'USER_UPDATED') expect(context.user).toEqual(renamed);
    // A refused signup names its field for the register form; the next attempt starts clean.
    if (event?.type === 'xstate.error.actor.signup') {
      const { error } = event as unknown as { error: { field?: string; message: string } };
      expect(context.fieldError).toEqual(error.field ? { field: error.field, message: error.message } : null);
    }
    if (snapshot.matches({ auth: 'signingUp' })) expect(context.fieldError).toBeNull();
    if (event?.type === 'UNAUTHORIZED') {
      const method = (event as unknown as { method: string }).method;
      expect(last).toMatchObject(
        method === 'GET' ? { to: '/landing' } : { to: '/welcome', replace: method === 'DELETE' },
      );
    }
    if (event?.type === 'xstate.done.actor.signup' || event?.type === 'xstate.done.actor.login') {
      expect(world.storage.getItem('token')).toBe('new-token');
      expect(last).toMatchObject({ type: 'navigate', to: context.returnUrl ?? '/list' });
    }
    if (event?.type === 'xstate.error.actor.login')
      expect(last).toEqual({ type: 'alert', title: 'Error', message: 'login failed' });
  },
};

export const organizationModel: MachineModel = {
  name: 'organization',
  provide: (world) =>
    organizationMachine.provide({
      actors: { fetchOrganization: pending() },
      actions: organizationActions(createStoredValues(world.storage), log(world)),
    }),
  inputs: [
    { host: 'localhost:3000', defaultOrganization: 'app' },
    { host: 'localhost:3000', defaultOrganization: 'acme' },
    { host: 'acme.parley.localhost:3000', defaultOrganization: 'app' },
    { host: 'parley.example', defaultOrganization: 'acme' },
  ],
  events: [
    done('fetchOrganization', { _id: 'o1', subdomain: 'acme', name: 'Acme Corporation' }),
    failed('fetchOrganization'),
  ],
  check: (snapshot, world) => {
    const stored = JSON.parse(world.storage.getItem('currentOrganization') ?? 'null');
    if (snapshot.context.subdomain === 'app') expect(snapshot.matches('allowed')).toBe(true);
    if (snapshot.matches('allowed')) expect(stored?.subdomain ?? 'app').toBe(snapshot.context.subdomain);
    if (snapshot.matches('blocked')) {
      expect(stored).toBeNull();
      expect(world.calls).toContain('log: Organization check failed');
    }
  },
};

export const languageModel: MachineModel = {
  name: 'language',
  provide: (world) =>
    languageMachine.provide({
      actions: languageActions(
        createStoredValues(world.storage),
        () => world.calls.push('reload'),
        () => world.calls.push('dropLanguageParameter'),
      ),
    }),
  inputs: [
    { storedLanguage: null, search: '' },
    { storedLanguage: 'de', search: '?bot=1' },
    { storedLanguage: 'de', search: '?language=he' },
    { storedLanguage: null, search: '?language=PT-br' },
    // Not well-formed, not known, or markup: dropped, and the current language stays.
    { storedLanguage: 'de', search: '?language=en_US' },
    { storedLanguage: null, search: '?language=xx' },
    { storedLanguage: 'fr', search: '?language=%3Cscript%3E' },
    // Stored by an older version that took any value: the default stands in for it.
    { storedLanguage: 'klingon', search: '' },
  ],
  events: [
    { type: 'CHANGE', language: 'fr' },
    { type: 'CHANGE', language: 'en' },
    { type: 'CHANGE', language: 'xx' },
  ],
  check: (snapshot, world) => {
    const { language, search } = snapshot.context;
    expect(knownLanguages).toContain(language);
    const asked = new URLSearchParams(search).get('language');
    // An unusable ?language= only leaves the address: nothing stored, no reload.
    const dropped = asked !== null && asked !== 'he' && asked !== 'PT-br';
    expect(world.calls.filter((call) => call === 'dropLanguageParameter')).toHaveLength(dropped ? 1 : 0);
    if (snapshot.matches('reloading')) {
      expect(world.storage.getItem('language')).toBe(language);
      expect(world.calls.filter((call) => call === 'reload')).toHaveLength(1);
      if (asked === 'PT-br') expect(language).toBe('pt');
    } else {
      expect(world.storage.getItem('language')).toBeNull();
      expect(world.calls).not.toContain('reload');
      expect(language).toMatch(/^(en|de|fr)$/);
    }
  },
};

export const workerModel: MachineModel = {
  name: 'worker',
  provide: (world) =>
    workerMachine.provide({
      actors: { registerWorker: pending() },
      actions: { logError: () => world.calls.push('log: worker') },
    }),
  inputs: [{ production: true }, { production: false }],
  events: [
    { type: 'STABLE' },
    { type: 'xstate.after.latestRegistration.worker.waiting' },
    done('registerWorker'),
    failed('registerWorker'),
  ],
  check: (snapshot, world) => {
    if (!snapshot.context.production) expect(snapshot.value).toBe('disabled');
    expect(world.calls.length > 0).toBe(snapshot.matches('failed'));
  },
};

const bots = [
  { _id: 'b1', name: 'ELIZA', active: true, categories: [{ _id: 'c1' }], platform: { name: 'builtin' } },
  { _id: 'b2', name: 'Oracle', active: false, categories: [{ _id: 'c1' }], platform: { name: 'builtin' } },
];

export const botsModel: MachineModel = {
  name: 'bots',
  provide: () => botsMachine.provide({ actors: { fetchBots: pending() } }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'FILTER', categoryIds: ['c1'] },
    { type: 'FILTER', categoryIds: [] },
    done('fetchBots', bots),
    failed('fetchBots'),
  ],
  check: (snapshot) => {
    // Loaded once and reused: nothing makes it load again.
    if (snapshot.matches('loaded')) {
      expect(snapshot.context.bots).toEqual(bots);
      expect(snapshot.can({ type: 'LOAD' })).toBe(false);
    }
    if (snapshot.matches('failed')) expect(snapshot.context.error).toBe('fetchBots failed');
  },
};

export const sidePanelModel: MachineModel = {
  name: 'sidePanel',
  provide: () => sidePanelMachine,
  inputs: [undefined],
  events: [
    { type: 'TOGGLE' },
    { type: 'CLOSE' },
    { type: 'SHOW_PROFILE' },
    { type: 'SHOW_BOT', botId: 'b1' },
    { type: 'SHOW_BOT' },
    { type: 'SHOW_BOT_LIST' },
    { type: 'SHOW_NOTIFICATIONS' },
    { type: 'SHOW_BOT_FILTER' },
    { type: 'RESIZE', width: 768 },
    { type: 'RESIZE', width: 1280 },
    { type: 'TOGGLE_BALANCE' },
    { type: 'TOGGLE_ORDER_INFO' },
    { type: 'TOGGLE_CURRENCY_SELECT' },
  ],
  check: (snapshot, world, event) => {
    const viewOf = (type: string) =>
      (Object.keys(showViewEvents) as SidePanelView[]).find((view) => showViewEvents[view] === type);
    const flagsOff = { balanceShown: false, orderInfoShown: false, currencySelectShown: false };
    // Nothing is unfolded while the panel is closed, nor when it opens again.
    if (snapshot.matches('closed') || event?.type === 'TOGGLE')
      expect(profileFlagsOf(snapshot)).toEqual(flagsOff);
    if (event?.type === 'RESIZE' && (event as unknown as { width: number }).width <= 768)
      expect(snapshot.matches('closed')).toBe(true);
    if (event && viewOf(event.type)) expect(shownViewOf(snapshot)).toBe(viewOf(event.type));
    // Opening it again shows the last chosen view (profile before any).
    if (event?.type === 'TOGGLE' && snapshot.matches('open')) {
      const chosen = world.sent.filter((sent) => viewOf(sent.type)).at(-1);
      expect(shownViewOf(snapshot)).toBe(chosen ? viewOf(chosen.type) : 'profile');
    }
    // The bot view shows the bot last asked for.
    const botChosen = world.sent.some((sent) => sent.type === 'SHOW_BOT' && sent.botId);
    expect(snapshot.context.botId).toBe(botChosen ? 'b1' : null);
  },
};

const afterWriteBatch = 'xstate.after.writeBatch.translation.ready.gathering';

export const translationModel: MachineModel = {
  name: 'translation',
  provide: () =>
    translationMachine.provide({
      actors: { readCache: pending(), writeCache: pending(), translateText: silent() },
      actions: { logError: () => {} },
    }),
  inputs: [{ language: 'en' }, { language: 'de' }],
  // Answers come only for texts that were asked for.
  events: (snapshot: AnyMachineSnapshot) => [
    { type: 'TRANSLATE', text: 'Log in' },
    { type: 'TRANSLATE', text: 'Register' },
    ...(snapshot.context.pending.includes('Log in')
      ? [
          { type: 'TRANSLATED', text: 'Log in', translation: 'Anmelden' },
          { type: 'NOT_TRANSLATED', text: 'Log in' },
        ]
      : []),
    ...(snapshot.context.pending.includes('Register')
      ? [{ type: 'TRANSLATED', text: 'Register', translation: 'Registrieren' }]
      : []),
    done('readCache', { Register: 'Registrieren' }),
    failed('readCache'),
    { type: afterWriteBatch },
    done('writeCache'),
    failed('writeCache'),
  ],
  serialize: (snapshot) => {
    const { translations, pending: asked, untranslatable, unwritten, writing } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      Object.keys(translations),
      asked,
      untranslatable,
      unwritten.length,
      writing.length,
    ]);
  },
  check: (snapshot) => {
    const { language, translations, pending: asked, untranslatable, unwritten, writing } = snapshot.context;
    if (language === 'en') expect(snapshot.value).toBe('bypassed');
    // One request per text: a text is pending at most once, and never once it is known.
    expect(new Set(asked).size).toBe(asked.length);
    for (const text of asked) expect(text in translations).toBe(false);
    // Untranslated texts are shown as they are and never written to the cache.
    for (const record of [...unwritten, ...writing]) {
      expect(record.language).toBe(language);
      expect(untranslatable).not.toContain(record.text);
      expect(translations[record.text]).toBe(record.translation);
    }
  },
};

const topicRecord = { _id: 't1', title: '', bot: { _id: 'b1', name: 'ELIZA' }, head: null, messages: [] };
/** A topic with two branches: the one on screen ends at m4, so m2 (the other reply) is not shown. */
const branchedTopic = {
  ...topicRecord,
  head: 'm4',
  messages: [
    { _id: 'm1', parent: null, role: 'user', text: 'Hello', status: 'complete' },
    { _id: 'm2', parent: 'm1', role: 'bot', text: 'Hi!', status: 'complete' },
    { _id: 'm3', parent: 'm1', role: 'bot', text: 'Hello there.', status: 'complete' },
    { _id: 'm4', parent: 'm3', role: 'user', text: 'How are you?', status: 'complete' },
  ],
};
/** A topic whose reply the server is still writing: 12 characters of it are stored. */
const streamingTopic = {
  ...branchedTopic,
  head: 'm5',
  messages: [
    ...branchedTopic.messages,
    { _id: 'm5', parent: 'm4', role: 'bot', text: 'I am fine, ', status: 'streaming' },
  ],
};
/** The same topic once its reply was stopped on the server. */
const stoppedTopic = {
  ...streamingTopic,
  messages: [...branchedTopic.messages, { ...streamingTopic.messages[4], status: 'stopped' }],
};
const unknownBot = (id: string): ModelEvent => ({
  type: `xstate.error.actor.${id}`,
  error: Object.assign(new Error('This bot does not exist.'), { code: 'BOT_NOT_FOUND' }),
});
const stamp = '2026-01-02T03:04:05.000Z';
const afterReattachDelay = 'xstate.after.reattachDelay.detached';
type ScreenMessage = { _id: string; parent: string | null; role: string; text: string; status: string };

export const topicModel: MachineModel = {
  name: 'topic',
  provide: (world) =>
    topicMachine.provide({
      actors: {
        checkBot: recording(world, 'checkBot'),
        createTopic: recording(world, 'createTopic'),
        loadTopic: pending(),
        streamReply: fromCallback<EventObject, { request: unknown }>(({ input }) => {
          world.calls.push(`streamReply ${JSON.stringify(input.request)}`);
        }) as never,
        followReply: fromCallback<EventObject, { offset: number }>(({ input }) => {
          world.calls.push(`followReply ${input.offset}`);
        }) as never,
        stopReply: recording(world, 'stopReply'),
        watchNetwork: silent(),
      },
      actions: {
        navigateToTopic: ({ context }) => world.calls.push(`navigate /topics/${context.topicId}`),
        announceCharge: ({ event }) => world.calls.push(`charged ${'balance' in event ? event.balance : ''}`),
        announceConversationChange: () => world.calls.push('conversation changed'),
        saveHead: ({ context }) => world.calls.push(`saveHead ${context.topicId} ${context.topic?.head}`),
      },
    }),
  inputs: [
    { botId: 'b1', topicId: null },
    { botId: null, topicId: 't1' },
    { botId: null, topicId: null },
  ],
  // Ids as the server gives them: new ones for each message, and for a reply asked again the message it answers.
  events: (snapshot) => {
    const { messages, topic, request } = snapshot.context;
    const onScreen = messages as ScreenMessage[];
    const count = topic?.messages.length ?? 0;
    const writing = onScreen.find((message) => message.status === 'streaming')?._id;
    return [
      done('checkBot'),
      failed('checkBot'),
      unknownBot('checkBot'),
      done('createTopic', topicRecord),
      failed('createTopic'),
      unknownBot('createTopic'),
      done('loadTopic', topicRecord),
      done('loadTopic', branchedTopic),
      done('loadTopic', streamingTopic),
      failed('loadTopic'),
      done('stopReply', stoppedTopic),
      failed('stopReply'),
      { type: 'RETRY' },
      { type: 'SEND', text: 'Men are all alike.' },
      { type: 'SEND', text: '   ' },
      { type: 'EDIT', messageId: 'm4', text: 'And you?' },
      { type: 'EDIT', messageId: 'm3', text: 'A bot reply is not mine to edit' },
      { type: 'REGENERATE', messageId: 'm3' },
      { type: 'SHOW_SIBLING', messageId: 'm2' },
      {
        type: 'STORED',
        userMessageId: request?.kind === 'regenerate' ? (onScreen.at(-1)?._id ?? '') : `u${count}`,
        botMessageId: `r${count}`,
        createdAt: stamp,
      },
      { type: 'TOKEN', text: 'In what way?' },
      { type: 'TOKEN', text: 'thank you.', end: 21 },
      { type: 'DONE', botMessageId: writing ?? `r${count}`, cost: 0.01, balance: 9.99, createdAt: stamp },
      { type: 'STOP' },
      { type: 'FAILED', error: { message: 'Insufficient balance', code: 'INSUFFICIENT_BALANCE' } },
      {
        type: 'FAILED',
        error: { message: 'The model server cannot be reached.', code: 'PROVIDER_UNREACHABLE' },
        botMessageId: writing,
      },
      {
        type: 'FAILED',
        error: { message: 'The reply was stopped.', code: 'STOPPED' },
        botMessageId: writing,
      },
      { type: 'DISCONNECTED' },
      { type: 'NOT_STREAMING' },
      { type: 'ONLINE' },
      { type: afterReattachDelay },
      { type: 'OPEN', topicId: 't1', botId: null },
      { type: 'OPEN', topicId: 't2', botId: null },
      { type: 'OPEN', topicId: null, botId: 'b1' },
    ];
  },
  serialize: (snapshot) => {
    const { messages, draft, topic, error, topicId, botId, request, reattempts } = snapshot.context;
    // Loading replaces the conversation with the one loaded: what was on screen before is no new state.
    if (snapshot.matches('loading')) return JSON.stringify(['loading', topicId, botId]);
    const last = messages.at(-1) as ScreenMessage | undefined;
    // What the screen ends with, not which ids: a longer conversation is no new state.
    return JSON.stringify([
      snapshot.value,
      last && [last.role, last.status, last._id.startsWith('pending')],
      Math.min(messages.length, 3),
      draft !== '',
      !!topic,
      error?.code ?? null,
      topicId,
      botId,
      request?.kind ?? null,
      reattempts > 0,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const screen = context.messages as ScreenMessage[];
    const calls = (prefix: string) => world.calls.filter((call) => call.startsWith(prefix));
    const sent = event as unknown as Record<string, string> | undefined;
    if (
      snapshot.matches('unavailable') ||
      snapshot.matches('botUnavailable') ||
      snapshot.matches('creationFailed') ||
      snapshot.matches('replyFailed') ||
      snapshot.matches('insufficientBalance')
    )
      expect(context.error).not.toBeNull();
    if (snapshot.matches('insufficientBalance')) expect(context.error.code).toBe('INSUFFICIENT_BALANCE');
    // No empty conversations: opening a bot creates nothing; the first message creates the topic, once.
    if (snapshot.matches('draft') || snapshot.matches('checkingBot')) expect(context.topicId).toBeNull();
    if (!world.sent.some((step) => step.type === 'SEND')) expect(calls('createTopic')).toEqual([]);
    if (snapshot.matches('creating')) {
      expect(calls('createTopic').at(-1)).toBe('createTopic {"botId":"b1"}');
      expect(screen.map((message) => message.text)).toEqual(['Men are all alike.']);
    }
    if (snapshot.matches('botUnavailable')) expect(snapshot.can({ type: 'RETRY' })).toBe(false);
    if (event?.type === 'xstate.done.actor.createTopic') {
      expect(calls('navigate').at(-1)).toBe('navigate /topics/t1');
      expect(snapshot.matches({ live: 'replying' })).toBe(true);
      expect(screen).toHaveLength(1);
    }
    // The branch on screen runs from the first message to the head, each message after its parent.
    for (const [index, message] of screen.entries())
      expect(message.parent).toBe(index ? screen[index - 1]._id : null);
    if (event?.type === 'xstate.done.actor.loadTopic' && context.topic?.head === 'm4')
      expect(screen.map((message) => message._id)).toEqual(['m1', 'm3', 'm4']);
    // A message sent goes to the server with what it follows; a reply asked again names the one it replaces.
    if (event?.type === 'SEND' && snapshot.matches('live')) {
      expect(screen.at(-1)).toMatchObject({ text: 'Men are all alike.', role: 'user' });
      expect(calls('streamReply').at(-1)).toBe(
        `streamReply ${JSON.stringify({ kind: 'send', text: 'Men are all alike.', parent: screen.at(-1)?.parent ?? null })}`,
      );
    }
    if (event?.type === 'EDIT') {
      if (sent?.messageId === 'm3') expect(snapshot.matches('live')).toBe(false);
      else {
        // Edit and resend: a new branch after m3, the old message kept in the topic.
        expect(screen.map((message) => message.text)).toEqual(['Hello', 'Hello there.', 'And you?']);
        expect(context.topic.messages.some((message: ScreenMessage) => message._id === 'm4')).toBe(true);
        expect(calls('streamReply').at(-1)).toBe(
          `streamReply ${JSON.stringify({ kind: 'send', text: 'And you?', parent: 'm3' })}`,
        );
      }
    }
    if (event?.type === 'REGENERATE') {
      expect(screen.map((message) => message._id)).toEqual(['m1']);
      expect(calls('streamReply').at(-1)).toBe('streamReply {"kind":"regenerate","messageId":"m3"}');
    }
    if (event?.type === 'SHOW_SIBLING') {
      expect(screen.map((message) => message._id)).toEqual(['m1', 'm2']);
      expect(calls('saveHead').at(-1)).toBe('saveHead t1 m2');
    }
    if (event?.type === 'STORED' && snapshot.matches('live')) {
      expect(screen.at(-2)).toMatchObject({ _id: sent?.userMessageId, role: 'user' });
      expect(screen.at(-1)).toMatchObject({
        _id: sent?.botMessageId,
        parent: sent?.userMessageId,
        status: 'streaming',
      });
    }
    // A token that says where it ends overwrites what it repeats: nothing shows twice.
    if (event?.type === 'TOKEN' && sent?.text === 'thank you.') expect(context.draft).toMatch(/thank you\.$/);
    if (event?.type === 'DONE') {
      expect(screen.at(-1)).toMatchObject({ _id: sent?.botMessageId, role: 'bot', status: 'complete' });
      expect(context.draft).toBe('');
      expect(calls('charged').at(-1)).toBe('charged 9.99');
      expect(world.calls.at(-1)).toBe('conversation changed');
    }
    // Following a reply someone else started: it asks for the text after what is on screen.
    if (snapshot.matches({ live: 'attached' }) && event?.type !== 'TOKEN')
      expect(calls('followReply').at(-1)).toBe(`followReply ${context.draft.length}`);
    if (event?.type === 'xstate.done.actor.loadTopic' && context.topic?.head === 'm5') {
      expect(snapshot.matches({ live: { attached: 'attaching' } })).toBe(true);
      expect(context.draft).toBe('I am fine, ');
    }
    if (snapshot.matches({ live: 'detached' })) expect(context.reattempts).toBeGreaterThan(0);
    if (event?.type === afterReattachDelay || event?.type === 'ONLINE')
      expect(snapshot.matches({ live: { attached: 'reattaching' } })).toBe(true);
    // Stop is its own call; leaving a reply never is.
    // A reply the server has not confirmed yet is stopped once it starts: the call says which it is.
    if (snapshot.matches('stopping')) {
      const started = context.topic.messages.some((message: ScreenMessage) => message.status === 'streaming');
      expect(calls('stopReply').at(-1)).toBe(`stopReply {"topicId":"t1","started":${started}}`);
    }
    if (event?.type !== 'STOP')
      expect(calls('stopReply')).toHaveLength(world.sent.filter((step) => step.type === 'STOP').length);
    if (event?.type === 'xstate.done.actor.stopReply')
      expect(screen.at(-1)).toMatchObject({ _id: 'm5', status: 'stopped' });
    // A reply that ended early keeps what was written of it, marked with how it ended.
    if (event?.type === 'FAILED' && sent?.botMessageId && snapshot.matches('ready'))
      expect(screen.find((message) => message._id === sent.botMessageId)?.status ?? 'stopped').toBe(
        'stopped',
      );
    if (event?.type === 'FAILED' && sent?.botMessageId && snapshot.matches('replyFailed'))
      expect(screen.find((message) => message._id === sent.botMessageId)?.status ?? 'failed').toBe('failed');
    if (snapshot.matches('ready') || snapshot.matches('replyFailed'))
      expect(screen.some((message) => message.status === 'streaming')).toBe(false);
    if (event?.type === 'SEND' && sent?.text.trim() === '')
      expect(snapshot.matches('live') || snapshot.matches('creating')).toBe(false);
    // Another conversation starts afresh; the one this chat created keeps its chat.
    if (event?.type === 'OPEN') {
      const opened = event as unknown as { topicId: string | null; botId: string | null };
      expect(context.topicId).toBe(opened.topicId ?? context.topicId);
      if (opened.topicId === null) expect(context.botId).toBe(opened.botId);
    }
  },
};

const conversation = (id: string, preview: string | null = 'Hello') => ({
  _id: id,
  title: `Conversation ${id}`,
  bot: { _id: 'b1', name: 'ELIZA' },
  preview,
  streaming: false,
  createdAt: stamp,
  updatedAt: stamp,
});
const firstPage = {
  items: [conversation('c1'), conversation('c2'), conversation('c0', null)],
  next: 'cursor-2',
};
const lastPage = { items: [conversation('c2'), conversation('c3')], next: null };
const afterSearchDelay = 'xstate.after.searchDelay.conversations.list.debouncing';

const c1 = { _id: 'c1', title: 'Conversation c1' };
const conversationsRegions = {
  list: {
    resting: ['idle', 'loaded'],
    events: [
      { type: 'LOAD' },
      { type: 'REFRESH' },
      { type: 'LOAD_MORE' },
      { type: 'RETRY' },
      { type: 'SEARCH', query: 'elizA' },
      { type: 'SEARCH', query: ' ' },
      { type: afterSearchDelay },
      done('fetchPage', firstPage),
      failed('fetchPage'),
      done('fetchMore', lastPage),
      failed('fetchMore'),
    ],
  },
  edit: {
    resting: ['idle'],
    events: [
      { type: 'START_RENAME', conversation: c1 },
      { type: 'ASK_DELETE', conversation: c1 },
      { type: 'RENAME', title: '  Therapy  ' },
      { type: 'RENAME', title: ' ' },
      { type: 'DELETE' },
      { type: 'CANCEL' },
      done('renameConversation', 'Therapy'),
      failed('renameConversation'),
      done('deleteConversation'),
      failed('deleteConversation'),
    ],
  },
  export: {
    resting: ['idle'],
    events: [{ type: 'EXPORT', conversation: c1 }, done('exportConversation'), failed('exportConversation')],
  },
  drawer: { resting: ['closed'], events: [{ type: 'OPEN_DRAWER' }, { type: 'CLOSE_DRAWER' }] },
} satisfies Record<string, { resting: string[]; events: ModelEvent[] }>;
type ConversationsRegion = keyof typeof conversationsRegions;

export const conversationsModel: MachineModel = {
  name: 'conversations',
  provide: (world) =>
    conversationsMachine.provide({
      actors: {
        fetchPage: recording(world, 'fetchPage'),
        renameConversation: recording(world, 'renameConversation'),
        deleteConversation: recording(world, 'deleteConversation'),
        exportConversation: recording(world, 'exportConversation'),
      },
      actions: {
        leaveConversation: () => world.calls.push('leaveConversation'),
        closeSidePanel: () => world.calls.push('closeSidePanel'),
      },
    }),
  inputs: [undefined],
  // The regions are independent: one of them at a time leaves its resting state, which keeps the graph
  // small; RESET, which concerns them all, is offered everywhere.
  events: (snapshot) => {
    const value = snapshot.value as Record<ConversationsRegion, string>;
    const away = (Object.keys(conversationsRegions) as ConversationsRegion[]).filter(
      (region) => !conversationsRegions[region].resting.includes(value[region]),
    );
    return [
      { type: 'RESET' },
      ...(away.length === 0
        ? [
            { type: 'SHOW', conversation: c1 },
            { type: 'SHOW', conversation: null },
          ]
        : []),
      ...(Object.keys(conversationsRegions) as ConversationsRegion[])
        .filter((region) => away.length === 0 || away.includes(region))
        .flatMap((region) => conversationsRegions[region].events),
    ];
  },
  serialize: (snapshot) => {
    const { items, next, query, shownQuery, error, open, target, editError, exportError } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.map((item: { _id: string; title: string }) => `${item._id}:${item.title}`),
      next,
      query,
      shownQuery,
      !!error,
      open?.title ?? null,
      target?._id ?? null,
      !!editError,
      !!exportError,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const fetches = world.calls.filter((call) => call.startsWith('fetchPage'));
    // Conversations without a message are never listed, and none twice.
    expect(context.items.some((item: { preview: string | null }) => item.preview === null)).toBe(false);
    const ids = context.items.map((item: { _id: string }) => item._id);
    expect(new Set(ids).size).toBe(ids.length);
    // Typing sends nothing until the pause; an emptied box lists everything at once.
    if (event?.type === 'SEARCH') {
      const query = (event as unknown as { query: string }).query;
      expect(context.query).toBe(query);
      if (query.trim()) expect(snapshot.matches({ list: 'debouncing' })).toBe(true);
      else expect(fetches.at(-1)).toBe('fetchPage {"query":"","cursor":""}');
    }
    if (event?.type === afterSearchDelay)
      expect(fetches.at(-1)).toBe('fetchPage {"query":"elizA","cursor":""}');
    if (snapshot.matches({ list: 'loadingMore' }))
      expect(fetches.at(-1)).toBe(`fetchPage {"query":"${context.shownQuery}","cursor":"cursor-2"}`);
    if (event?.type === 'xstate.done.actor.fetchMore') expect(ids).toContain('c3');
    if (snapshot.matches({ list: 'failed' })) expect(context.error).toBe('fetchPage failed');
    if (event?.type === 'LOAD_MORE' && context.next === null)
      expect(snapshot.matches({ list: 'loadingMore' })).toBe(false);
    // Renames are trimmed and refused when empty; the new title shows wherever the conversation does.
    if (event?.type === 'RENAME' && snapshot.matches({ edit: 'savingTitle' }))
      expect(world.calls.at(-1)).toBe('renameConversation {"id":"c1","title":"Therapy"}');
    if (event?.type === 'xstate.done.actor.renameConversation') {
      expect(context.items.find((item: { _id: string }) => item._id === 'c1')?.title ?? 'Therapy').toBe(
        'Therapy',
      );
      if (context.open?._id === 'c1') expect(context.open.title).toBe('Therapy');
    }
    if (event?.type === 'xstate.done.actor.deleteConversation') {
      expect(ids).not.toContain('c1');
      const left = world.calls.at(-1) === 'leaveConversation';
      expect(left).toBe(context.open?._id === 'c1');
    }
    if (event?.type?.startsWith('xstate.error.actor.') && event.type.includes('Conversation')) {
      if (event.type.endsWith('exportConversation'))
        expect(context.exportError).toBe('exportConversation failed');
      else expect(context.editError).toMatch(/Conversation failed$/);
    }
    if (snapshot.matches({ edit: 'idle' })) expect(context.target).toBeNull();
    if (event?.type === 'OPEN_DRAWER') expect(world.calls.at(-1)).toBe('closeSidePanel');
    if (event?.type === 'RESET') {
      expect(context).toMatchObject({ items: [], query: '', open: null, target: null });
      expect(snapshot.matches({ list: 'idle', drawer: 'closed' })).toBe(true);
    }
  },
};

export const themeModel: MachineModel = {
  name: 'theme',
  provide: (world) =>
    themeMachine.provide({
      actions: themeActions(createStoredValues(world.storage), (choice) =>
        world.calls.push(`apply ${choice}`),
      ),
    }),
  inputs: [{ stored: null }, { stored: 'dark' }, { stored: 'light' }, { stored: 'sepia' }],
  events: [
    { type: 'CHOOSE', choice: 'light' },
    { type: 'CHOOSE', choice: 'dark' },
    { type: 'CHOOSE', choice: 'system' },
  ],
  check: (snapshot, world, event) => {
    const { stored } = snapshot.context;
    if (!event) expect(snapshot.value).toBe(stored === 'light' || stored === 'dark' ? stored : 'system');
    if (event) {
      // A choice is shown at once and kept for the next visit; "system" is no stored choice at all.
      const { choice } = event as unknown as { choice: string };
      expect(snapshot.value).toBe(choice);
      expect(world.calls.at(-1)).toBe(`apply ${choice}`);
      expect(world.storage.getItem('theme')).toBe(choice === 'system' ? null : choice);
    }
  },
};

export const resourceModel: MachineModel = {
  name: 'resource',
  provide: () => resourceMachine.provide({ actors: { fetch: pending(), change: pending() } }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RELOAD' },
    { type: 'CHANGE', change: { kind: 'delete', id: 't1' } },
    { type: 'REPLACE', data: ['replaced'] },
    { type: 'RESET' },
    done('fetch', ['fetched']),
    failed('fetch'),
    done('change'),
    failed('change'),
  ],
  check: (snapshot, _world, event) => {
    if (event?.type === 'RESET') expect(snapshot.context).toEqual({ data: null, error: null });
    if (snapshot.matches('failed')) expect(snapshot.context.error).toBe('fetch failed');
    if (snapshot.matches('loaded')) expect(snapshot.context.data).not.toBeNull();
  },
};

const accountRegions = {
  profile: {
    initial: 'idle',
    events: [
      { type: 'SAVE_PROFILE', changes: { displayName: 'Ada King' } },
      { type: 'SAVE_PROFILE', changes: { displayName: undefined } },
      done('updateProfile', renamed),
      failedOn('updateProfile', 'username'),
    ],
  },
  password: {
    initial: 'idle',
    events: [
      { type: 'CHANGE_PASSWORD', password: 'old password', newPassword: 'new password' },
      { type: 'CHANGE_PASSWORD', password: 'old password', newPassword: ' ' },
      done('changePassword', 'renewed-token'),
      failedOn('changePassword', 'password'),
    ],
  },
  sessions: {
    initial: 'idle',
    events: [{ type: 'LOG_OUT_EVERYWHERE' }, done('logoutEverywhere'), failed('logoutEverywhere')],
  },
  data: {
    initial: 'idle',
    events: [{ type: 'DOWNLOAD_DATA' }, done('exportData'), failed('exportData')],
  },
  deletion: {
    initial: 'closed',
    events: [
      { type: 'ASK_TO_DELETE' },
      { type: 'CANCEL_DELETE' },
      { type: 'DELETE_ACCOUNT', password: 'old password' },
      { type: 'DELETE_ACCOUNT', password: '' },
      done('deleteAccount', { success: true }),
      failedOn('deleteAccount', 'password'),
    ],
  },
  recovery: {
    initial: 'askingEmail',
    events: [
      { type: 'SEND_RESET_CODE', email: 'ada@example.org' },
      { type: 'SEND_RESET_CODE', email: '' },
      { type: 'ENTER_CODE', email: 'ada@example.org' },
      { type: 'ENTER_CODE', email: '' },
      done('sendResetCode', { sent: true }),
      failedOn('sendResetCode', 'email'),
      { type: 'RESET_PASSWORD', otp: '123456', password: 'new password' },
      { type: 'RESET_PASSWORD', otp: '', password: 'new password' },
      { type: 'CHANGE_EMAIL' },
      done('resetPassword', 'reset-token'),
      failedOn('resetPassword', 'password'),
    ],
  },
} as const;
type AccountRegion = keyof typeof accountRegions;
/** Each invoked actor: the region it works for and the state it runs in. */
const accountActors = {
  updateProfile: ['profile', 'saving'],
  changePassword: ['password', 'changing'],
  logoutEverywhere: ['sessions', 'loggingOutEverywhere'],
  exportData: ['data', 'exporting'],
  deleteAccount: ['deletion', 'deleting'],
  sendResetCode: ['recovery', 'sendingCode'],
  resetPassword: ['recovery', 'resetting'],
} as const;

export const accountModel: MachineModel = {
  name: 'account',
  provide: (world) =>
    accountMachine.provide({
      actors: Object.fromEntries(Object.keys(accountActors).map((id) => [id, recording(world, id)])),
    }),
  inputs: [undefined],
  // The regions are independent: one of them at a time leaves its resting state, which keeps the graph
  // small; SESSION_ENDED, which concerns them all, is offered everywhere.
  events: (snapshot) => {
    const value = snapshot.value as Record<AccountRegion, string>;
    const away = (Object.keys(accountRegions) as AccountRegion[]).filter(
      (region) => value[region] !== accountRegions[region].initial,
    );
    return [
      { type: 'SESSION_ENDED' },
      ...(Object.keys(accountRegions) as AccountRegion[])
        .filter((region) => away.length === 0 || away.includes(region))
        .flatMap((region) => accountRegions[region].events as unknown as ModelEvent[]),
    ];
  },
  serialize: (snapshot) => JSON.stringify([snapshot.value, Object.keys(snapshot.context.problems).sort()]),
  check: (snapshot, world, event) => {
    const { problems, recoveryEmail } = snapshot.context;
    const value = snapshot.value as Record<AccountRegion, string>;
    const last = world.emitted.at(-1);
    // A section at work shows no old problem.
    for (const [region, busy] of Object.values(accountActors))
      if (value[region] === busy) expect(problems[region]).toBeUndefined();
    // No call goes out without what it needs.
    for (const call of world.calls) expect(call).not.toMatch(/"(password|newPassword|otp|email)":"\s*"/);
    if (event?.type.startsWith('xstate.error.actor.')) {
      const actor = event.type.replace('xstate.error.actor.', '') as keyof typeof accountActors;
      const { error } = event as unknown as { error: { message: string; field?: string } };
      expect(problems[accountActors[actor][0]]).toEqual({
        message: error.message,
        ...(error.field ? { field: error.field } : {}),
      });
    }
    switch (event?.type) {
      case 'SAVE_PROFILE':
        if (value.profile === 'saving')
          expect(world.calls.at(-1)).toBe('updateProfile {"displayName":"Ada King"}');
        break;
      case 'xstate.done.actor.updateProfile':
        expect(value.profile).toBe('saved');
        expect(last).toEqual({ type: 'USER_UPDATED', user: renamed });
        break;
      case 'xstate.done.actor.changePassword':
        expect(value.password).toBe('changed');
        expect(last).toEqual({ type: 'TOKEN_RENEWED', token: 'renewed-token' });
        break;
      case 'xstate.done.actor.logoutEverywhere':
      case 'xstate.done.actor.deleteAccount':
        expect(last).toEqual({ type: 'SIGNED_OUT' });
        expect(value.deletion).toBe('closed');
        break;
      case 'xstate.error.actor.deleteAccount':
        // The dialog stays open on the problem (a wrong password also ends the session: see session).
        expect(value.deletion).toBe('confirming');
        break;
      case 'CANCEL_DELETE':
        expect(value.deletion).toBe('closed');
        expect(problems.deletion).toBeUndefined();
        break;
      case 'xstate.done.actor.resetPassword':
        expect(last).toEqual({ type: 'SIGNED_IN', token: 'reset-token' });
        expect(value.recovery).toBe('askingEmail');
        break;
      case 'ENTER_CODE':
        // A code the user already has: no new one is mailed (it would replace theirs).
        expect(value.recovery).toBe(recoveryEmail ? 'askingCode' : 'askingEmail');
        expect(world.calls.filter((call) => call.startsWith('sendResetCode'))).toHaveLength(
          world.sent.filter((sent) => sent.type === 'SEND_RESET_CODE' && sent.email).length,
        );
        break;
      case 'RESET_PASSWORD':
        if (value.recovery === 'resetting')
          expect(world.calls.at(-1)).toBe(
            'resetPassword {"email":"ada@example.org","otp":"123456","password":"new password"}',
          );
        break;
      case 'SESSION_ENDED':
        // Nothing of the last user stays; a password recovery under way is not theirs and goes on.
        expect(Object.keys(problems).filter((section) => section !== 'recovery')).toEqual([]);
        for (const region of Object.keys(accountRegions) as AccountRegion[])
          if (region !== 'recovery') expect(value[region]).toBe(accountRegions[region].initial);
        break;
    }
    if (value.recovery === 'askingCode' || value.recovery === 'resetting')
      expect(recoveryEmail).toBe('ada@example.org');
    // Every token and sign-out the session hears of comes from a call that succeeded.
    const succeeded = world.sent.filter((sent) => sent.type.startsWith('xstate.done.actor.')).length;
    const reported = world.emitted.length;
    expect(reported).toBeLessThanOrEqual(succeeded);
  },
};

export const models = [
  sessionModel,
  accountModel,
  organizationModel,
  sidePanelModel,
  botsModel,
  translationModel,
  languageModel,
  workerModel,
  topicModel,
  conversationsModel,
  themeModel,
  resourceModel,
];
