import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';

/** The fields signup needs (seed-spec §5). */
export interface SignupFields {
  username: string;
  displayName: string;
  email: string;
  password: string;
  otp: string;
}
export interface LoginFields {
  email: string;
  password: string;
}
export interface SessionUser {
  _id: string;
  displayName: string;
  username: string;
  /** The user's role in the request's organization (`GET /api/v1/user/me`). */
  role?: 'owner' | 'admin' | 'member';
}
/** An error the server tied to one form field, shown next to that field. */
export interface FieldError {
  field: string;
  message: string;
}
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SessionContext {
  token: string | null;
  user: SessionUser | null;
  /** Where a logged-out visitor was going; they return there after login. */
  returnUrl: string | null;
  /** The address the last one-time code was asked for. */
  codeEmail: string | null;
  /** The field of the register form the last failed signup was about. */
  fieldError: FieldError | null;
}

export type SessionEvent =
  | { type: 'CHECK'; returnUrl: string }
  | ({ type: 'SIGNUP' } & SignupFields)
  | ({ type: 'LOGIN' } & LoginFields)
  | { type: 'REQUEST_OTP'; email: string }
  | { type: 'LOGOUT' }
  | { type: 'UNAUTHORIZED'; method: HttpMethod }
  /** A password reset answered with a token: the user is logged in. */
  | { type: 'SIGNED_IN'; token: string }
  /** A password change answered with a new token; the old one is revoked. */
  | { type: 'TOKEN_RENEWED'; token: string }
  /** The server ended this session: logged out everywhere, or the account was deleted. */
  | { type: 'SIGNED_OUT' }
  | { type: 'USER_UPDATED'; user: SessionUser };

export type SessionEmitted =
  | { type: 'navigate'; to: string; replace?: boolean }
  | { type: 'alert'; title: string; message: string };

/** Seed-spec §5: text, an at sign, text, a dot, text, with no spaces. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Only a path of this site may be a return target: never another origin (`//evil.example`). */
export function isSameSitePath(url: string | null): url is string {
  return !!url && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Internal Server Error');
const fieldErrorOf = (error: unknown): FieldError | null => {
  const field = (error as { field?: unknown } | null)?.field;
  return typeof field === 'string' ? { field, message: messageOf(error) } : null;
};
const blank = (value: string | undefined) => !value?.trim();

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as SessionEmitted,
    input: {} as { token: string | null; user: SessionUser | null },
  },
  actors: {
    verifyToken: fromPromise<{ verified: number }>(async () => {
      throw new Error('verifyToken is provided by the app');
    }),
    loadUser: fromPromise<SessionUser, { force: boolean }>(async () => {
      throw new Error('loadUser is provided by the app');
    }),
    signup: fromPromise<string, SignupFields>(async () => {
      throw new Error('signup is provided by the app');
    }),
    login: fromPromise<string, LoginFields>(async () => {
      throw new Error('login is provided by the app');
    }),
    requestOtp: fromPromise<unknown, { email: string }>(async () => {
      throw new Error('requestOtp is provided by the app');
    }),
    /** Revokes the token on the server; the user is logged out whatever it answers. */
    logout: fromPromise<void>(async () => {
      throw new Error('logout is provided by the app');
    }),
  },
  delays: {
    /** A server that does not answer does not keep the user from leaving. */
    logoutTimeout: 5000,
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isVerified: (_, params: { verified: number }) => params.verified === 1,
    signupIncomplete: ({ event }) =>
      event.type === 'SIGNUP' &&
      [event.username, event.displayName, event.email, event.password, event.otp].some(blank),
    emailInvalid: ({ event }) =>
      (event.type === 'SIGNUP' || event.type === 'REQUEST_OTP') && !emailPattern.test(event.email),
    loginIncomplete: ({ event }) => event.type === 'LOGIN' && [event.email, event.password].some(blank),
    isChangeMethod: ({ event }) =>
      event.type === 'UNAUTHORIZED' && (event.method === 'PATCH' || event.method === 'DELETE'),
  },
  actions: {
    /** Effects the app provides: the stored values of seed-spec §3. */
    storeToken: (_, _params: { token: string }) => {},
    removeToken: () => {},
    storeCurrentUser: (_, _params: { user: SessionUser }) => {},
    clearCurrentUser: () => {},
    /** The login check loads the bots along with the user (seed-spec §4). */
    requestBots: () => {},
    assignToken: assign({ token: (_, params: { token: string }) => params.token }),
    forgetToken: assign({ token: null, user: null }),
    assignUser: assign({ user: (_, params: { user: SessionUser }) => params.user }),
    assignReturnUrl: assign({ returnUrl: (_, params: { returnUrl: string | null }) => params.returnUrl }),
    assignCodeEmail: assign({ codeEmail: (_, params: { email: string }) => params.email }),
    assignFieldError: assign({ fieldError: (_, params: { error: unknown }) => fieldErrorOf(params.error) }),
    clearFieldError: assign({ fieldError: null }),
    navigateToLandingWithReturnUrl: emit(({ context }) => ({
      type: 'navigate' as const,
      to: context.returnUrl ? `/landing?returnUrl=${encodeURIComponent(context.returnUrl)}` : '/landing',
      replace: true,
    })),
    navigateToLanding: emit({ type: 'navigate', to: '/landing' }),
    navigateToWelcome: emit(({ event }) => ({
      type: 'navigate' as const,
      to: '/welcome',
      // A failed DELETE must not leave the deleted page in history (seed-spec §4).
      replace: event.type === 'UNAUTHORIZED' && event.method === 'DELETE',
    })),
    navigateAfterLogin: emit(({ context }) => ({
      type: 'navigate' as const,
      to: isSameSitePath(context.returnUrl) ? context.returnUrl : '/list',
      replace: true,
    })),
    alertError: emit((_, params: { message: string }) => ({
      type: 'alert' as const,
      title: 'Error',
      message: params.message,
    })),
  },
}).createMachine({
  id: 'session',
  description: 'Who the user is: the token, the login check, signup, login, logout and 401 handling.',
  type: 'parallel',
  context: ({ input }) => ({
    token: input.token,
    user: input.user,
    returnUrl: null,
    codeEmail: null,
    fieldError: null,
  }),
  states: {
    auth: {
      description: 'Whether the user is logged in.',
      initial: 'starting',
      on: {
        SIGNUP: [
          {
            guard: 'signupIncomplete',
            actions: {
              type: 'alertError',
              params: { message: 'Please fill in username, display name, email, password and code.' },
            },
          },
          {
            guard: 'emailInvalid',
            actions: { type: 'alertError', params: { message: 'Invalid email address' } },
          },
          { target: '.signingUp' },
        ],
        LOGIN: [
          {
            guard: 'loginIncomplete',
            actions: { type: 'alertError', params: { message: 'Please enter your email and password.' } },
          },
          { target: '.loggingIn' },
        ],
        SIGNED_IN: {
          target: '.loadingUser',
          actions: [
            { type: 'storeToken', params: ({ event }) => ({ token: event.token }) },
            { type: 'assignToken', params: ({ event }) => ({ token: event.token }) },
            'clearCurrentUser',
            'navigateAfterLogin',
          ],
        },
        UNAUTHORIZED: [
          {
            guard: 'isChangeMethod',
            target: '.loggedOut',
            actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToWelcome'],
          },
          {
            target: '.loggedOut',
            actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLanding'],
          },
        ],
      },
      states: {
        starting: {
          description: 'Looks for a stored token: none means logged out.',
          always: [{ guard: 'hasToken', target: 'unverified' }, { target: 'loggedOut' }],
        },
        loggedOut: {
          description: 'No token. A login check sends the visitor to landing with returnUrl.',
          on: {
            CHECK: {
              actions: [
                { type: 'assignReturnUrl', params: ({ event }) => ({ returnUrl: event.returnUrl }) },
                'clearCurrentUser',
                'navigateToLandingWithReturnUrl',
              ],
            },
          },
        },
        unverified: {
          description: 'A stored token nobody has checked yet; the first guarded route checks it.',
          on: {
            CHECK: {
              target: 'verifying',
              actions: { type: 'assignReturnUrl', params: ({ event }) => ({ returnUrl: event.returnUrl }) },
            },
          },
        },
        verifying: {
          description: 'Asks the server whether the token is still valid.',
          tags: ['busy'],
          invoke: {
            id: 'verifyToken',
            src: 'verifyToken',
            onDone: [
              {
                guard: { type: 'isVerified', params: ({ event }) => ({ verified: event.output.verified }) },
                target: 'loadingUser',
              },
              {
                target: 'loggedOut',
                actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLandingWithReturnUrl'],
              },
            ],
            onError: {
              target: 'loggedOut',
              actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLandingWithReturnUrl'],
            },
          },
        },
        loadingUser: {
          description: 'Loads the user (cached copy allowed) and asks for the bots.',
          tags: ['busy'],
          entry: 'requestBots',
          invoke: {
            id: 'loadUser',
            src: 'loadUser',
            input: { force: false },
            onDone: {
              target: 'loggedIn',
              actions: [
                { type: 'assignUser', params: ({ event }) => ({ user: event.output }) },
                { type: 'storeCurrentUser', params: ({ event }) => ({ user: event.output }) },
              ],
            },
            onError: {
              target: 'loggedOut',
              actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLandingWithReturnUrl'],
            },
          },
        },
        loggedIn: {
          description: 'Verified: the home area and chats are open to the user.',
          on: {
            LOGOUT: { target: 'loggingOut' },
            SIGNED_OUT: {
              target: 'loggedOut',
              actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLanding'],
            },
            TOKEN_RENEWED: {
              actions: [
                { type: 'storeToken', params: ({ event }) => ({ token: event.token }) },
                { type: 'assignToken', params: ({ event }) => ({ token: event.token }) },
              ],
            },
            USER_UPDATED: {
              actions: [
                { type: 'assignUser', params: ({ event }) => ({ user: event.user }) },
                { type: 'storeCurrentUser', params: ({ event }) => ({ user: event.user }) },
              ],
            },
          },
        },
        loggingOut: {
          description: 'Asks the server to revoke the token, then forgets it whatever the answer.',
          tags: ['busy'],
          invoke: {
            id: 'logout',
            src: 'logout',
            onDone: {
              target: 'loggedOut',
              actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLanding'],
            },
            // Offline or already revoked: the token is forgotten here all the same.
            onError: {
              target: 'loggedOut',
              actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLanding'],
            },
          },
          after: {
            logoutTimeout: {
              target: 'loggedOut',
              actions: ['removeToken', 'forgetToken', 'clearCurrentUser', 'navigateToLanding'],
            },
          },
        },
        signingUp: {
          description: 'Creates the account; the answer must carry a token.',
          tags: ['busy'],
          entry: 'clearFieldError',
          invoke: {
            id: 'signup',
            src: 'signup',
            input: ({ event }) => {
              assertEvent(event, 'SIGNUP');
              const { type: _, ...fields } = event;
              return fields;
            },
            onDone: {
              target: 'loadingUser',
              actions: [
                { type: 'storeToken', params: ({ event }) => ({ token: event.output }) },
                { type: 'assignToken', params: ({ event }) => ({ token: event.output }) },
                'clearCurrentUser',
                'navigateAfterLogin',
              ],
            },
            onError: {
              target: 'starting',
              actions: [
                { type: 'alertError', params: ({ event }) => ({ message: messageOf(event.error) }) },
                { type: 'assignFieldError', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
        loggingIn: {
          description: 'Checks email and password; the answer must carry a token.',
          tags: ['busy'],
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'LOGIN');
              return { email: event.email, password: event.password };
            },
            onDone: {
              target: 'loadingUser',
              actions: [
                { type: 'storeToken', params: ({ event }) => ({ token: event.output }) },
                { type: 'assignToken', params: ({ event }) => ({ token: event.output }) },
                'clearCurrentUser',
                'navigateAfterLogin',
              ],
            },
            onError: {
              target: 'starting',
              actions: { type: 'alertError', params: ({ event }) => ({ message: messageOf(event.error) }) },
            },
          },
        },
      },
    },
    oneTimeCode: {
      description: 'Mailing the one-time code that signup needs.',
      initial: 'idle',
      on: {
        REQUEST_OTP: [
          {
            guard: 'emailInvalid',
            actions: { type: 'alertError', params: { message: 'Invalid email address' } },
          },
          {
            target: '.sending',
            actions: { type: 'assignCodeEmail', params: ({ event }) => ({ email: event.email }) },
          },
        ],
      },
      states: {
        idle: { description: 'No code asked for yet.' },
        sending: {
          description: 'Asks the server to mail a code.',
          invoke: {
            id: 'requestOtp',
            src: 'requestOtp',
            input: ({ context }) => ({ email: context.codeEmail ?? '' }),
            onDone: { target: 'sent' },
            onError: {
              target: 'idle',
              actions: { type: 'alertError', params: ({ event }) => ({ message: messageOf(event.error) }) },
            },
          },
        },
        sent: { description: 'A code is on its way to the inbox.' },
      },
    },
  },
});
