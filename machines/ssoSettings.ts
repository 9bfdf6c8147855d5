import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, fieldOf, messageOf } from './errors';

/** The organization's identity provider as `GET /api/v1/admin/sso` answers it: the secret masked. */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  /** `••••` and the secret's last characters when one is stored; empty or null when none. */
  clientSecret: string | null;
  scopes: string[];
  claims: { email: string; name: string; groups?: string | null };
  label: string;
  required: boolean;
  /** How many API keys of members and admins still work: with SSO required, a way in around the IdP. */
  memberApiKeys: number;
}

/** The change body: a left-out secret keeps the stored one. */
export type SsoRequest = Omit<SsoSettings, 'clientSecret' | 'memberApiKeys'> & { clientSecret?: string };

/** The form as the owner fills it in. */
export interface SsoDraft {
  issuer: string;
  clientId: string;
  /** A new secret; empty keeps the stored one. */
  clientSecret: string;
  /** Separated by spaces, as OpenID Connect writes them. */
  scopes: string;
  emailClaim: string;
  nameClaim: string;
  groupsClaim: string;
  label: string;
  required: boolean;
}

export type SsoField = keyof SsoDraft | 'claims';
export interface SsoProblem {
  field: SsoField | null;
  message: string;
}

export const emptySsoDraft: SsoDraft = {
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: 'openid email profile',
  emailClaim: 'email',
  nameClaim: 'name',
  groupsClaim: '',
  label: '',
  required: false,
};

export function ssoDraftOf(settings: SsoSettings | null): SsoDraft {
  if (!settings) return emptySsoDraft;
  return {
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: '',
    scopes: settings.scopes.join(' '),
    emailClaim: settings.claims.email,
    nameClaim: settings.claims.name,
    groupsClaim: settings.claims.groups ?? '',
    label: settings.label,
    required: settings.required,
  };
}

const scopesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** What the owner can fix before the form is sent; the server checks the rest (discovery above all). */
export function ssoProblems(draft: SsoDraft): SsoProblem[] {
  const problems: SsoProblem[] = [];
  if (!/^https?:\/\/\S+$/i.test(draft.issuer.trim()))
    problems.push({ field: 'issuer', message: 'Enter the issuer URL, such as https://login.example.com.' });
  if (!draft.clientId.trim()) problems.push({ field: 'clientId', message: 'Please fill in the client ID.' });
  if (!scopesOf(draft.scopes).includes('openid'))
    problems.push({ field: 'scopes', message: 'The scopes must include openid.' });
  if (!draft.emailClaim.trim()) problems.push({ field: 'emailClaim', message: 'Enter the claim name.' });
  if (!draft.nameClaim.trim()) problems.push({ field: 'nameClaim', message: 'Enter the claim name.' });
  if (!draft.label.trim()) problems.push({ field: 'label', message: 'Enter the button label.' });
  return problems;
}

/** The change body of a valid form: an empty secret is left out, so the stored one is kept. */
export function ssoRequest(draft: SsoDraft): SsoRequest {
  const secret = draft.clientSecret.trim();
  return {
    issuer: draft.issuer.trim(),
    clientId: draft.clientId.trim(),
    ...(secret ? { clientSecret: secret } : {}),
    scopes: scopesOf(draft.scopes),
    claims: {
      email: draft.emailClaim.trim(),
      name: draft.nameClaim.trim(),
      groups: draft.groupsClaim.trim() || null,
    },
    label: draft.label.trim(),
    required: draft.required,
  };
}

const claimFields: SsoField[] = ['emailClaim', 'nameClaim', 'groupsClaim'];

/** The fields the server names in its refusals, as the form's. */
const serverFields: Record<string, SsoField> = {
  issuer: 'issuer',
  clientId: 'clientId',
  clientSecret: 'clientSecret',
  scopes: 'scopes',
  claims: 'claims',
  email: 'emailClaim',
  name: 'nameClaim',
  groups: 'groupsClaim',
  label: 'label',
  required: 'required',
};

/** What went through last, for the screen to announce. */
export type SsoDone = 'save' | 'off' | 'revoke';

export interface SsoSettingsContext {
  /** As stored: null while SSO is off (and until the first answer). */
  settings: SsoSettings | null;
  draft: SsoDraft;
  problems: SsoProblem[];
  loadError: string | null;
  /** Why the members' keys could not be revoked, told in the dialog that asked. */
  keysError: string | null;
  done: SsoDone | null;
}

export type SsoSettingsEvent =
  | { type: 'LOAD' }
  | { type: 'RETRY' }
  | { type: 'CHANGE'; values: Partial<SsoDraft> }
  | { type: 'SAVE' }
  | { type: 'ASK_TURN_OFF' }
  | { type: 'TURN_OFF' }
  | { type: 'ASK_REVOKE_KEYS' }
  | { type: 'REVOKE_KEYS' }
  | { type: 'CANCEL' }
  | { type: 'RESET' };

const forgotten = {
  settings: null,
  draft: emptySsoDraft,
  problems: [],
  loadError: null,
  keysError: null,
  done: null,
} satisfies SsoSettingsContext;

export const ssoSettingsMachine = setup({
  types: {
    context: {} as SsoSettingsContext,
    events: {} as SsoSettingsEvent,
  },
  actors: {
    /** The identity provider as stored (`GET /api/v1/admin/sso`), or null while SSO is off. */
    fetchSettings: fromPromise<SsoSettings | null>(async () => {
      throw new Error('fetchSettings is provided by the app');
    }),
    /** Stores the settings once the issuer answers discovery; answers them as stored (the secret masked). */
    saveSettings: fromPromise<SsoSettings | null, { settings: SsoRequest }>(async () => {
      throw new Error('saveSettings is provided by the app');
    }),
    /** Deletes the settings: members log in with their passwords again. */
    turnOff: fromPromise<void>(async () => {
      throw new Error('turnOff is provided by the app');
    }),
    /** Revokes every API key of members and admins (owners keep theirs); answers how many it revoked. */
    revokeKeys: fromPromise<{ revoked: number }>(async () => {
      throw new Error('revokeKeys is provided by the app');
    }),
  },
  guards: {
    isValid: ({ context }) => ssoProblems(context.draft).length === 0,
    isOn: ({ context }) => context.settings !== null,
    /** SSO is required and members' keys still let them in around it. */
    hasMemberKeys: ({ context }) => !!context.settings?.required && context.settings.memberApiKeys > 0,
  },
  actions: {
    /** The settings as stored, in the form too (the secret field empty: it is write-only). */
    assignSettings: assign((_, { settings }: { settings: SsoSettings | null }) => ({
      settings,
      draft: ssoDraftOf(settings),
      problems: [],
      loadError: null,
    })),
    assignLoadError: assign((_, { error }: { error: unknown }) => ({ loadError: messageOf(error) })),
    /** A change clears the problems of the fields it touches, and those of the whole form. */
    assignValues: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      const fields = Object.keys(event.values) as SsoField[];
      const touchesClaims = fields.some((field) => claimFields.includes(field));
      return {
        draft: { ...context.draft, ...event.values },
        problems: context.problems.filter(
          (problem) =>
            problem.field !== null &&
            !fields.includes(problem.field) &&
            !(problem.field === 'claims' && touchesClaims),
        ),
        done: null,
      };
    }),
    assignDraftProblems: assign({ problems: ({ context }) => ssoProblems(context.draft) }),
    clearProblems: assign({ problems: [], done: null }),
    /** The server's refusal, at the field it names. */
    assignSaveProblem: assign((_, { error }: { error: unknown }) => {
      const field = fieldOf(error);
      return {
        problems: [
          { field: field === null ? null : (serverFields[field] ?? null), message: messageOf(error) },
        ],
      };
    }),
    assignDone: assign((_, { done }: { done: SsoDone }) => ({ done })),
    /** None of the members' keys works any more. */
    assignKeysRevoked: assign(({ context }) => ({
      settings: context.settings && { ...context.settings, memberApiKeys: 0 },
      done: 'revoke' as const,
    })),
    assignKeysError: assign((_, { error }: { error: unknown }) => ({ keysError: messageOf(error) })),
    clearKeysError: assign({ keysError: null, done: null }),
    forgetAll: assign(forgotten),
  },
}).createMachine({
  id: 'ssoSettings',
  description:
    "The organization's identity provider (owners): the form, turning SSO off, and revoking members' API keys.",
  context: forgotten,
  initial: 'idle',
  on: {
    RESET: { target: '.idle', actions: 'forgetAll' },
  },
  states: {
    idle: {
      description: 'Not asked for yet.',
      on: { LOAD: 'loading' },
    },
    loading: {
      description: 'Fetches the settings.',
      invoke: {
        id: 'fetchSettings',
        src: 'fetchSettings',
        onDone: {
          target: 'ready',
          actions: { type: 'assignSettings', params: ({ event }) => ({ settings: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: errorParams } },
      },
    },
    failed: {
      description: 'The settings could not be loaded; the owner can retry.',
      on: { RETRY: 'loading', LOAD: 'loading' },
    },
    ready: {
      description: 'The form, filled in as stored; what went through last is announced.',
      initial: 'editing',
      on: {
        CHANGE: { target: '.editing', actions: 'assignValues' },
      },
      states: {
        editing: {
          description: 'The owner changes the fields; problems show next to them.',
          on: {
            SAVE: [
              { guard: 'isValid', target: 'saving', actions: 'clearProblems' },
              { actions: 'assignDraftProblems' },
            ],
            ASK_TURN_OFF: { guard: 'isOn', target: 'confirmingOff', actions: 'clearProblems' },
            ASK_REVOKE_KEYS: {
              guard: 'hasMemberKeys',
              target: 'confirmingRevoke',
              actions: 'clearKeysError',
            },
          },
        },
        saving: {
          description: 'Stores the settings once the issuer answers OpenID Connect discovery.',
          invoke: {
            id: 'saveSettings',
            src: 'saveSettings',
            input: ({ context }) => ({ settings: ssoRequest(context.draft) }),
            onDone: {
              target: 'editing',
              actions: [
                { type: 'assignSettings', params: ({ event }) => ({ settings: event.output }) },
                { type: 'assignDone', params: { done: 'save' } },
              ],
            },
            onError: { target: 'editing', actions: { type: 'assignSaveProblem', params: errorParams } },
          },
        },
        confirmingOff: {
          description: 'The dialog asks before SSO is turned off and its settings deleted.',
          on: { TURN_OFF: 'turningOff', CANCEL: 'editing' },
        },
        turningOff: {
          description: 'Deletes the settings: members log in with their passwords again.',
          invoke: {
            id: 'turnOff',
            src: 'turnOff',
            onDone: {
              target: 'editing',
              actions: [
                { type: 'assignSettings', params: { settings: null } },
                { type: 'assignDone', params: { done: 'off' } },
              ],
            },
            onError: { target: 'editing', actions: { type: 'assignSaveProblem', params: errorParams } },
          },
        },
        confirmingRevoke: {
          description: 'The dialog asks before every API key of members and admins is revoked.',
          on: { REVOKE_KEYS: 'revokingKeys', CANCEL: 'editing' },
        },
        revokingKeys: {
          description: 'Revokes the keys; a failure is told in the dialog.',
          invoke: {
            id: 'revokeKeys',
            src: 'revokeKeys',
            onDone: { target: 'editing', actions: 'assignKeysRevoked' },
            onError: {
              target: 'confirmingRevoke',
              actions: { type: 'assignKeysError', params: errorParams },
            },
          },
        },
      },
    },
  },
});
