import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { problemOf } from './errors';

export interface AccountUser {
  _id: string;
  displayName: string;
  username: string;
}
/** Only the fields the user changed are sent. */
export interface ProfileChanges {
  displayName?: string;
  username?: string;
}
/** What went wrong, in a sentence; `field` names the form field the server says it is about. */
export interface Problem {
  message: string;
  field?: string;
}
export type AccountSection = 'profile' | 'password' | 'sessions' | 'data' | 'deletion' | 'recovery';

export interface AccountContext {
  problems: Partial<Record<AccountSection, Problem>>;
  /** The address the reset code was mailed to; the reset step sends it again with the code. */
  recoveryEmail: string | null;
}

export type AccountEvent =
  | { type: 'SAVE_PROFILE'; changes: ProfileChanges }
  | { type: 'CHANGE_PASSWORD'; password: string; newPassword: string }
  | { type: 'LOG_OUT_EVERYWHERE' }
  | { type: 'DOWNLOAD_DATA' }
  | { type: 'ASK_TO_DELETE' }
  | { type: 'CANCEL_DELETE' }
  | { type: 'DELETE_ACCOUNT'; password: string }
  | { type: 'SEND_RESET_CODE'; email: string }
  /** The user already has a code for the address (mailed by an operator or an earlier request). */
  | { type: 'ENTER_CODE'; email: string }
  | { type: 'RESET_PASSWORD'; otp: string; password: string }
  | { type: 'CHANGE_EMAIL' }
  /** The session is over (logout, 401, deletion): the last user's feedback must not stay on screen. */
  | { type: 'SESSION_ENDED' };

/** Events for the session machine, which owns the token and the user: the app forwards them. */
export type AccountEmitted =
  | { type: 'USER_UPDATED'; user: AccountUser }
  | { type: 'TOKEN_RENEWED'; token: string }
  | { type: 'SIGNED_IN'; token: string }
  | { type: 'SIGNED_OUT' };

/** The values an event cannot go without: no call goes out with one of them blank. */
const requiredOf = (event: AccountEvent): string[] => {
  switch (event.type) {
    case 'CHANGE_PASSWORD':
      return [event.password, event.newPassword];
    case 'DELETE_ACCOUNT':
      return [event.password];
    case 'SEND_RESET_CODE':
    case 'ENTER_CODE':
      return [event.email];
    case 'RESET_PASSWORD':
      return [event.otp, event.password];
    default:
      return [];
  }
};

export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    emitted: {} as AccountEmitted,
  },
  actors: {
    updateProfile: fromPromise<AccountUser, ProfileChanges>(async () => {
      throw new Error('updateProfile is provided by the app');
    }),
    /** Answers the new token; the server has revoked every other session. */
    changePassword: fromPromise<string, { password: string; newPassword: string }>(async () => {
      throw new Error('changePassword is provided by the app');
    }),
    logoutEverywhere: fromPromise<void>(async () => {
      throw new Error('logoutEverywhere is provided by the app');
    }),
    /** Fetches everything the server keeps about the user and saves it as a file. */
    exportData: fromPromise<void>(async () => {
      throw new Error('exportData is provided by the app');
    }),
    deleteAccount: fromPromise<unknown, { password: string }>(async () => {
      throw new Error('deleteAccount is provided by the app');
    }),
    sendResetCode: fromPromise<unknown, { email: string }>(async () => {
      throw new Error('sendResetCode is provided by the app');
    }),
    /** Answers a token: the user is logged in with the new password. */
    resetPassword: fromPromise<string, { email: string; otp: string; password: string }>(async () => {
      throw new Error('resetPassword is provided by the app');
    }),
  },
  guards: {
    hasChanges: ({ event }) =>
      event.type === 'SAVE_PROFILE' && Object.values(event.changes).some((value) => value !== undefined),
    isComplete: ({ event }) => requiredOf(event).every((value) => value.trim() !== ''),
  },
  actions: {
    assignProblem: assign({
      problems: ({ context }, params: { section: AccountSection; error: unknown }) => ({
        ...context.problems,
        [params.section]: problemOf(params.error),
      }),
    }),
    clearProblem: assign({
      problems: ({ context }, params: { section: AccountSection }) => {
        const { [params.section]: _, ...rest } = context.problems;
        return rest;
      },
    }),
    assignRecoveryEmail: assign({
      recoveryEmail: ({ event }) => {
        assertEvent(event, ['SEND_RESET_CODE', 'ENTER_CODE']);
        return event.email;
      },
    }),
    reportUser: emit((_, { user }: { user: AccountUser }) => ({ type: 'USER_UPDATED' as const, user })),
    reportNewToken: emit((_, { token }: { token: string }) => ({ type: 'TOKEN_RENEWED' as const, token })),
    reportSignedIn: emit((_, { token }: { token: string }) => ({ type: 'SIGNED_IN' as const, token })),
    reportSignedOut: emit({ type: 'SIGNED_OUT' }),
  },
}).createMachine({
  id: 'account',
  description:
    'Self-service: profile, password, sessions, my data, deleting the account, forgotten password.',
  type: 'parallel',
  context: { problems: {}, recoveryEmail: null },
  states: {
    profile: {
      description: 'The display name and username the user edits.',
      initial: 'idle',
      on: {
        SESSION_ENDED: { target: '.idle', actions: { type: 'clearProblem', params: { section: 'profile' } } },
      },
      states: {
        idle: {
          description: 'The form shows the profile; a save with a change sends it.',
          on: { SAVE_PROFILE: { guard: 'hasChanges', target: 'saving' } },
        },
        saving: {
          description: 'Sends the changed fields; the server checks the names.',
          entry: { type: 'clearProblem', params: { section: 'profile' } },
          invoke: {
            id: 'updateProfile',
            src: 'updateProfile',
            input: ({ event }) => {
              assertEvent(event, 'SAVE_PROFILE');
              return event.changes;
            },
            onDone: {
              target: 'saved',
              actions: { type: 'reportUser', params: ({ event }) => ({ user: event.output }) },
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => ({ section: 'profile', error: event.error }),
              },
            },
          },
        },
        saved: {
          description: 'Saved, and announced; the user can change more.',
          on: { SAVE_PROFILE: { guard: 'hasChanges', target: 'saving' } },
        },
      },
    },
    password: {
      description: 'Changing the password with the current one.',
      initial: 'idle',
      on: {
        SESSION_ENDED: {
          target: '.idle',
          actions: { type: 'clearProblem', params: { section: 'password' } },
        },
      },
      states: {
        idle: {
          description: 'Waits for the current and the new password.',
          on: {
            CHANGE_PASSWORD: {
              guard: 'isComplete',
              target: 'changing',
            },
          },
        },
        changing: {
          description: 'The server checks the current password and signs out every other session.',
          entry: { type: 'clearProblem', params: { section: 'password' } },
          invoke: {
            id: 'changePassword',
            src: 'changePassword',
            input: ({ event }) => {
              assertEvent(event, 'CHANGE_PASSWORD');
              return { password: event.password, newPassword: event.newPassword };
            },
            onDone: {
              target: 'changed',
              actions: { type: 'reportNewToken', params: ({ event }) => ({ token: event.output }) },
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => ({ section: 'password', error: event.error }),
              },
            },
          },
        },
        changed: {
          description: 'Changed, and announced; this session goes on with the new token.',
          on: {
            CHANGE_PASSWORD: {
              guard: 'isComplete',
              target: 'changing',
            },
          },
        },
      },
    },
    sessions: {
      description: 'Logging out on every device at once.',
      initial: 'idle',
      on: {
        SESSION_ENDED: {
          target: '.idle',
          actions: { type: 'clearProblem', params: { section: 'sessions' } },
        },
      },
      states: {
        idle: {
          description: 'Every session of the user is open.',
          on: { LOG_OUT_EVERYWHERE: 'loggingOutEverywhere' },
        },
        loggingOutEverywhere: {
          description: 'The server revokes every session, this one included.',
          entry: { type: 'clearProblem', params: { section: 'sessions' } },
          invoke: {
            id: 'logoutEverywhere',
            src: 'logoutEverywhere',
            onDone: { target: 'idle', actions: 'reportSignedOut' },
            onError: {
              target: 'idle',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => ({ section: 'sessions', error: event.error }),
              },
            },
          },
        },
      },
    },
    data: {
      description: 'Downloading everything Parley keeps about the user.',
      initial: 'idle',
      on: {
        SESSION_ENDED: { target: '.idle', actions: { type: 'clearProblem', params: { section: 'data' } } },
      },
      states: {
        idle: {
          description: 'Nothing downloaded yet.',
          on: { DOWNLOAD_DATA: 'exporting' },
        },
        exporting: {
          description: 'Fetches the data and saves it as a JSON file.',
          entry: { type: 'clearProblem', params: { section: 'data' } },
          invoke: {
            id: 'exportData',
            src: 'exportData',
            onDone: 'exported',
            onError: {
              target: 'idle',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => ({ section: 'data', error: event.error }),
              },
            },
          },
        },
        exported: {
          description: 'The file is saved, and that is announced; it can be downloaded again.',
          on: { DOWNLOAD_DATA: 'exporting' },
        },
      },
    },
    deletion: {
      description: 'Deleting the account, confirmed with the password.',
      initial: 'closed',
      on: {
        SESSION_ENDED: {
          target: '.closed',
          actions: { type: 'clearProblem', params: { section: 'deletion' } },
        },
      },
      states: {
        closed: {
          description: 'No confirmation asked for.',
          on: { ASK_TO_DELETE: 'confirming' },
        },
        confirming: {
          description: 'The dialog asks for the password; cancelling closes it.',
          on: {
            CANCEL_DELETE: {
              target: 'closed',
              actions: { type: 'clearProblem', params: { section: 'deletion' } },
            },
            DELETE_ACCOUNT: {
              guard: 'isComplete',
              target: 'deleting',
            },
          },
        },
        deleting: {
          description: 'Deletes the account; a wrong password ends the session (401, to welcome).',
          entry: { type: 'clearProblem', params: { section: 'deletion' } },
          invoke: {
            id: 'deleteAccount',
            src: 'deleteAccount',
            input: ({ event }) => {
              assertEvent(event, 'DELETE_ACCOUNT');
              return { password: event.password };
            },
            onDone: { target: 'closed', actions: 'reportSignedOut' },
            onError: {
              target: 'confirming',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => ({ section: 'deletion', error: event.error }),
              },
            },
          },
        },
      },
    },
    recovery: {
      description: 'A forgotten password: a code mailed to the address, then a new password.',
      initial: 'askingEmail',
      states: {
        askingEmail: {
          description: 'Waits for the address to mail a code to, or whose code the user already has.',
          on: {
            SEND_RESET_CODE: {
              guard: 'isComplete',
              target: 'sendingCode',
              actions: 'assignRecoveryEmail',
            },
            ENTER_CODE: {
              guard: 'isComplete',
              target: 'askingCode',
              actions: 'assignRecoveryEmail',
            },
          },
        },
        sendingCode: {
          description: 'Asks the server to mail a code; it answers the same whether the address is known.',
          entry: { type: 'clearProblem', params: { section: 'recovery' } },
          invoke: {
            id: 'sendResetCode',
            src: 'sendResetCode',
            input: ({ context }) => ({ email: context.recoveryEmail ?? '' }),
            onDone: 'askingCode',
            onError: {
              target: 'askingEmail',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => ({ section: 'recovery', error: event.error }),
              },
            },
          },
        },
        askingCode: {
          description: 'Waits for the mailed code and a new password; the address can be changed.',
          on: {
            RESET_PASSWORD: {
              guard: 'isComplete',
              target: 'resetting',
            },
            CHANGE_EMAIL: {
              target: 'askingEmail',
              actions: { type: 'clearProblem', params: { section: 'recovery' } },
            },
          },
        },
        resetting: {
          description:
            'Sets the new password; the server signs out every other session and logs this one in.',
          entry: { type: 'clearProblem', params: { section: 'recovery' } },
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context, event }) => {
              assertEvent(event, 'RESET_PASSWORD');
              return { email: context.recoveryEmail ?? '', otp: event.otp, password: event.password };
            },
            onDone: {
              target: 'askingEmail',
              actions: { type: 'reportSignedIn', params: ({ event }) => ({ token: event.output }) },
            },
            onError: {
              target: 'askingCode',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => ({ section: 'recovery', error: event.error }),
              },
            },
          },
        },
      },
    },
  },
});
