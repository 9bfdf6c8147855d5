import { assertEvent, assign, emit, fromPromise, raise, setup } from 'xstate';
import { errorParams, fieldOf, messageOf } from './errors';

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
  /** Back from the organization's identity provider with a single-use code (`?sso=`) and where to go. */
  | { type: 'SSO_CODE'; code: string; returnUrl: string | null }
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

/**
 * Only a path of this site may be a return target: never another origin (`//evil.example`,
 * `/\evil.example`), nor anything a URL parser reads otherwise — it drops tabs and newlines, so
 * `/\t/evil.example` is `//evil.example`. Control characters are refused raw and percent-encoded (a
 * target decoded once too often must still be harmless), and backslashes anywhere. The server's rule
 * for the returnUrl it keeps is the same (server/auth/oidc/routes.ts, safeReturnUrl).
 */
export function isSameSitePath(url: string | null): url is string {
  return (
    !!url &&
    url.length <= 2000 &&
    url.startsWith('/') &&
    !url.startsWith('//') &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    !/[\u0000-\u001f\u007f\\]/.test(url) &&
    !/%(?:[01][0-9a-f]|7f)/i.test(url)
  );
}

/** What the alert says when a call failed and the server said nothing. */
const serverError = 'Internal Server Error';
const fieldErrorOf = (error: unknown): FieldError | null => {
  const field = fieldOf(error);
  return field === null ? null : { field, message: messageOf(error, serverError) };
};

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
    /** `POST /auth/oidc/exchange`: the single-use code of an SSO sign-in for a token. */
    exchangeSsoCode: fromPromise<string, { code: string }>(async () => {
      throw new Error('exchangeSsoCode is provided by the app');
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
    isVerified: (_, { verified }: { verified: number }) => verified === 1,
    emailInvalid: ({ event }) =>
      (event.type === 'SIGNUP' || event.type === 'REQUEST_OTP') && !emailPattern.test(event.email),
    isChangeMethod: ({ event }) =>
      event.type === 'UNAUTHORIZED' && (event.method === 'PATCH' || event.method === 'DELETE'),
  },
  actions: {
    /** Effects the app provides: the stored values of seed-spec §3 (`context.token`, `context.user`). */
    storeToken: () => {
      throw new Error('storeToken is provided by the app');
    },
    removeToken: () => {
      throw new Error('removeToken is provided by the app');
    },
    storeCurrentUser: () => {
      throw new Error('storeCurrentUser is provided by the app');
    },
    clearCurrentUser: () => {
      throw new Error('clearCurrentUser is provided by the app');
    },
    /** The login check loads the bots along with the user (seed-spec §4). */
    requestBots: () => {
      throw new Error('requestBots is provided by the app');
    },
    /** The token a reset or a password change answered, or the one signup or login did. */
    assignToken: assign((_, { token }: { token: string }) => ({ token })),
    forgetToken: assign({ token: null, user: null }),
    /** A token a sign-in answered (SSO's exchange), handed on as the app's other sign-ins hand theirs. */
    signInWithToken: raise((_, { token }: { token: string }) => ({ type: 'SIGNED_IN' as const, token })),
    /** The user as changed in the account, or as loaded. */
    assignUser: assign((_, { user }: { user: SessionUser }) => ({ user })),
    /** Where the visitor was going (the SSO sign-in too); the navigation after login checks it is a path of this site. */
    assignReturnUrl: assign({
      returnUrl: ({ event }) => {
        assertEvent(event, ['CHECK', 'SSO_CODE']);
        return event.returnUrl;
      },
    }),
    assignCodeEmail: assign({
      codeEmail: ({ event }) => {
        assertEvent(event, 'REQUEST_OTP');
        return event.email;
      },
    }),
    assignFieldError: assign((_, { error }: { error: unknown }) => ({ fieldError: fieldErrorOf(error) })),
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
    /** What the server said when a call failed. */
    alertFailure: emit((_, { error }: { error: unknown }) => ({
      type: 'alert' as const,
      title: 'Error',
      message: messageOf(error, serverError),
    })),
  },
}).createMachine({
  id: 'session',
  description:
    'Who the user is: the token, the login check, signup, login (password or SSO), logout and 401 handling.',
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
        SIGNED_IN: {
          target: '.loadingUser',
          actions: [
            { type: 'assignToken', params: ({ event }) => ({ token: event.token }) },
            'storeToken',
            'clearCurrentUser',
            'navigateAfterLogin',
          ],
        },
        UNAUTHORIZED: [
          { guard: 'isChangeMethod', target: '.loggedOut', actions: 'navigateToWelcome' },
          { target: '.loggedOut', actions: 'navigateToLanding' },
        ],
      },
      states: {
        starting: {
          description: 'Looks for a stored token: none means logged out.',
          always: [{ guard: 'hasToken', target: 'unverified' }, { target: 'loggedOut' }],
        },
        loggedOut: {
          description:
            'No token: on the way in, the token and the current user are forgotten. A login check sends the visitor to landing with returnUrl.',
          entry: ['removeToken', 'forgetToken', 'clearCurrentUser'],
          on: {
            CHECK: {
              actions: ['assignReturnUrl', 'clearCurrentUser', 'navigateToLandingWithReturnUrl'],
            },
            // A blank field never gets here: the forms name each one in place (seed-spec §5).
            SIGNUP: [
              {
                guard: 'emailInvalid',
                actions: { type: 'alertError', params: { message: 'Invalid email address' } },
              },
              { target: 'signingUp' },
            ],
            LOGIN: { target: 'loggingIn' },
            SSO_CODE: { target: 'exchangingSsoCode', actions: 'assignReturnUrl' },
          },
        },
        unverified: {
          description:
            'A stored token nobody has checked yet; the first guarded route checks it, or the visitor logs in afresh.',
          on: {
            CHECK: {
              target: 'verifying',
              actions: 'assignReturnUrl',
            },
            SIGNUP: [
              {
                guard: 'emailInvalid',
                actions: { type: 'alertError', params: { message: 'Invalid email address' } },
              },
              { target: 'signingUp' },
            ],
            LOGIN: { target: 'loggingIn' },
            SSO_CODE: { target: 'exchangingSsoCode', actions: 'assignReturnUrl' },
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
                actions: 'navigateToLandingWithReturnUrl',
              },
            ],
            onError: {
              target: 'loggedOut',
              actions: 'navigateToLandingWithReturnUrl',
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
                'storeCurrentUser',
              ],
            },
            onError: {
              target: 'loggedOut',
              actions: 'navigateToLandingWithReturnUrl',
            },
          },
        },
        loggedIn: {
          description: 'Verified: the home area and chats are open to the user.',
          on: {
            LOGOUT: { target: 'loggingOut' },
            SIGNED_OUT: {
              target: 'loggedOut',
              actions: 'navigateToLanding',
            },
            TOKEN_RENEWED: {
              actions: [
                { type: 'assignToken', params: ({ event }) => ({ token: event.token }) },
                'storeToken',
              ],
            },
            USER_UPDATED: {
              actions: [
                { type: 'assignUser', params: ({ event }) => ({ user: event.user }) },
                'storeCurrentUser',
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
              actions: 'navigateToLanding',
            },
            // Offline or already revoked: the token is forgotten here all the same.
            onError: {
              target: 'loggedOut',
              actions: 'navigateToLanding',
            },
          },
          after: {
            logoutTimeout: {
              target: 'loggedOut',
              actions: 'navigateToLanding',
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
              return {
                username: event.username,
                displayName: event.displayName,
                email: event.email,
                password: event.password,
                otp: event.otp,
              };
            },
            onDone: {
              target: 'loadingUser',
              actions: [
                { type: 'assignToken', params: ({ event }) => ({ token: event.output }) },
                'storeToken',
                'clearCurrentUser',
                'navigateAfterLogin',
              ],
            },
            onError: {
              target: 'loggedOut',
              actions: [
                { type: 'alertFailure', params: errorParams },
                { type: 'assignFieldError', params: errorParams },
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
                { type: 'assignToken', params: ({ event }) => ({ token: event.output }) },
                'storeToken',
                'clearCurrentUser',
                'navigateAfterLogin',
              ],
            },
            onError: { target: 'loggedOut', actions: { type: 'alertFailure', params: errorParams } },
          },
        },
        exchangingSsoCode: {
          description:
            "Back from the organization's identity provider: trades the single-use code for a token, as a login would give.",
          tags: ['busy'],
          invoke: {
            id: 'exchangeSsoCode',
            src: 'exchangeSsoCode',
            input: ({ event }) => {
              assertEvent(event, 'SSO_CODE');
              return { code: event.code };
            },
            // The token is a sign-in like any other: SIGNED_IN keeps it and goes on to the user.
            onDone: {
              actions: { type: 'signInWithToken', params: ({ event }) => ({ token: event.output }) },
            },
            onError: { target: 'loggedOut', actions: { type: 'alertFailure', params: errorParams } },
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
            actions: 'assignCodeEmail',
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
            onError: { target: 'idle', actions: { type: 'alertFailure', params: errorParams } },
          },
        },
        sent: { description: 'A code is on its way to the inbox.' },
      },
    },
  },
});
