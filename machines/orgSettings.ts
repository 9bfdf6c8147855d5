import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';

export type SignupPolicy = 'open' | 'invite' | 'domains';
export const signupPolicies: SignupPolicy[] = ['open', 'invite', 'domains'];

/** The organization's settings (`/api/v1/admin/settings`). */
export interface OrganizationSettings {
  name: string;
  /** `#rrggbb`, or null for Parley's own colour. */
  brandColor: string | null;
  /** Where the logo is served (`/api/v1/organization/:subdomain/logo?v=…`), or null. */
  logo: string | null;
  defaultLanguage: string;
  currency: string;
  startingBalance: number;
  signup: SignupPolicy;
  allowedDomains?: string[];
  /** Whether conversations may be shared with anyone (public links); off turns existing ones off too. */
  publicSharing?: boolean;
  /** Whether members' personal keys may call Parley's OpenAI-compatible API; off stops every key at once. */
  apiAccess?: boolean;
  /** Whether members' memories are saved and given to model bots; off keeps the existing ones. */
  memory?: boolean;
  /** Whether members may make their own bots; off makes no new ones (those made keep answering). */
  memberBots?: boolean;
  /** Image generation: a provider's id (null: the server's own), its model, the price of one image; null: off. */
  images?: ImageSettings | null;
  /** The search engine of web search, or null; a Brave key comes back masked (`••••1234`). */
  search?: SearchSetting | null;
  /** Voice: the provider's models (null: off), the voices members choose from, per-minute prices. */
  speech?: SpeechSettings;
}

export interface ImageSettings {
  provider: string | null;
  model: string;
  price: number;
}

export type SearchEngineName = 'searxng' | 'brave';
/** The search engine as sent: a Brave key left out keeps the saved one. */
export interface SearchSetting {
  engine: SearchEngineName;
  url?: string;
  key?: string;
}

/** The organization's voice settings (`speech` of the admin settings; the server reuses this record). */
export interface SpeechSettings {
  /** The provider's name of its speech-to-text model (`whisper-1`…); null: no transcription. */
  transcriptionModel: string | null;
  /** The provider's name of its text-to-speech model (`tts-1`…); null: no server speech. */
  speechModel: string | null;
  /** The voices members may choose, the first the default. */
  voices: string[];
  /** One of the organization's providers, or null: the server's own model server. */
  provider: string | null;
  /** Per minute of audio (0: free). */
  transcriptionPrice: number;
  speechPrice: number;
}

/** A logo to store: PNG or SVG, base64. */
export interface LogoUpload {
  type: 'image/png' | 'image/svg+xml';
  data: string;
}
/** The change body: the logo left out when unchanged, null to remove it. */
export type SettingsRequest = Omit<OrganizationSettings, 'logo'> & { logo?: LogoUpload | null };

export const searchEngines: SearchEngineName[] = ['searxng', 'brave'];

/** The form as the admin fills it in: numbers and lists as typed. */
export interface SettingsDraft {
  name: string;
  brandColor: string;
  /** What the logo shows: the stored logo's address, a picked file's data URL, or null. */
  logo: string | null;
  defaultLanguage: string;
  currency: string;
  startingBalance: string;
  signup: SignupPolicy;
  allowedDomains: string;
  publicSharing: boolean;
  apiAccess: boolean;
  memory: boolean;
  memberBots: boolean;
  /** Image generation on, with its provider ('' the server's own), model and price per image as typed. */
  images: boolean;
  imageProvider: string;
  imageModel: string;
  imagePrice: string;
  /** The search engine ('' for none), a SearXNG instance's address, a new Brave key (empty keeps the saved one). */
  search: SearchEngineName | '';
  searchUrl: string;
  searchKey: string;
  /** The saved Brave key as the server shows it (`••••1234`), or ''. */
  savedSearchKey: string;
  transcriptionModel: string;
  speechModel: string;
  /** Separated by commas. */
  voices: string;
  /** A provider's id; empty: the server's own. */
  speechProvider: string;
  transcriptionPrice: string;
  speechPrice: string;
}

/** A file the admin picked for the logo, read in the browser. */
export interface LogoFile {
  type: string;
  size: number;
  dataUrl: string;
}

export interface SettingsProblem {
  field: keyof SettingsDraft | null;
  message: string;
}

export const maxLogoBytes = 100 * 1024;
/** White text on the brand colour (buttons, the active tab) needs this contrast (WCAG AA). */
export const minimumContrast = 4.5;

const hexPattern = /^#[0-9a-f]{6}$/i;

/** The relative luminance of an `#rrggbb` colour (WCAG 2). */
function luminance(hex: string): number {
  const channel = (index: number) => {
    const value = Number.parseInt(hex.slice(index, index + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two `#rrggbb` colours, 1 to 21; null when either is no such colour. */
export function contrastRatio(first: string, second: string): number | null {
  if (!hexPattern.test(first) || !hexPattern.test(second)) return null;
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

export function draftOf(settings: OrganizationSettings): SettingsDraft {
  return {
    name: settings.name,
    brandColor: settings.brandColor ?? '',
    logo: settings.logo ?? null,
    defaultLanguage: settings.defaultLanguage,
    currency: settings.currency,
    startingBalance: String(settings.startingBalance),
    signup: settings.signup,
    allowedDomains: (settings.allowedDomains ?? []).join(', '),
    publicSharing: settings.publicSharing ?? true,
    apiAccess: settings.apiAccess ?? true,
    memory: settings.memory ?? true,
    memberBots: settings.memberBots ?? false,
    images: Boolean(settings.images),
    imageProvider: settings.images?.provider ?? '',
    imageModel: settings.images?.model ?? '',
    imagePrice: String(settings.images?.price ?? 0),
    search: settings.search?.engine ?? '',
    searchUrl: settings.search?.url ?? '',
    searchKey: '',
    savedSearchKey: settings.search?.engine === 'brave' ? (settings.search.key ?? '') : '',
    transcriptionModel: settings.speech?.transcriptionModel ?? '',
    speechModel: settings.speech?.speechModel ?? '',
    voices: (settings.speech?.voices ?? []).join(', '),
    speechProvider: settings.speech?.provider ?? '',
    transcriptionPrice: String(settings.speech?.transcriptionPrice ?? 0),
    speechPrice: String(settings.speech?.speechPrice ?? 0),
  };
}

const voicesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const amountIsValid = (text: string) =>
  text.trim() !== '' && Number.isFinite(Number(text)) && Number(text) >= 0;

const domainsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);

/** Every problem of the form the admin can fix before it is sent. */
export function settingsProblems(draft: SettingsDraft): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (!draft.name.trim()) problems.push({ field: 'name', message: 'Enter the name people will see.' });
  if (draft.brandColor && !hexPattern.test(draft.brandColor))
    problems.push({ field: 'brandColor', message: 'Enter a colour as #rrggbb.' });
  else if (draft.brandColor && (contrastRatio(draft.brandColor, '#ffffff') ?? 0) < minimumContrast)
    problems.push({
      field: 'brandColor',
      message: 'White text on this colour is hard to read: choose a darker one.',
    });
  if (!/^[A-Za-z]{3}$/.test(draft.currency.trim()))
    problems.push({ field: 'currency', message: 'Enter a three-letter currency code, such as EUR.' });
  const balance = Number(draft.startingBalance);
  if (draft.startingBalance.trim() === '' || !Number.isFinite(balance) || balance < 0)
    problems.push({ field: 'startingBalance', message: 'Enter an amount of 0 or more.' });
  if (draft.signup === 'domains' && domainsOf(draft.allowedDomains).length === 0)
    problems.push({ field: 'allowedDomains', message: 'Enter at least one email domain.' });
  if (draft.images && !draft.imageModel.trim())
    problems.push({ field: 'imageModel', message: 'Enter the image model, such as gpt-image-1.' });
  const price = Number(draft.imagePrice);
  if (draft.images && (draft.imagePrice.trim() === '' || !Number.isFinite(price) || price < 0))
    problems.push({ field: 'imagePrice', message: 'Enter a price of 0 or more.' });
  if (draft.search === 'searxng' && !draft.searchUrl.trim())
    problems.push({ field: 'searchUrl', message: 'Enter the address of the SearXNG instance.' });
  if (draft.search === 'brave' && !draft.searchKey.trim() && !draft.savedSearchKey)
    problems.push({ field: 'searchKey', message: 'Enter the Brave Search API key.' });
  for (const field of ['transcriptionPrice', 'speechPrice'] as const)
    if (!amountIsValid(draft[field])) problems.push({ field, message: 'Enter an amount of 0 or more.' });
  const voices = voicesOf(draft.voices);
  if (voices.some((voice) => !/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(voice)))
    problems.push({
      field: 'voices',
      message: 'Enter voice names as the provider spells them, such as alloy, nova.',
    });
  else if (draft.speechModel.trim() && !voices.length)
    problems.push({
      field: 'voices',
      message: 'Name at least one voice for the speech model, such as alloy.',
    });
  return problems;
}

/** The logo part of the change: a picked file's data, null when removed, nothing when unchanged. */
function logoOf(logo: string | null): { logo?: LogoUpload | null } {
  if (logo === null) return { logo: null };
  const picked = /^data:(image\/png|image\/svg\+xml);base64,(.+)$/.exec(logo);
  return picked ? { logo: { type: picked[1] as LogoUpload['type'], data: picked[2] } } : {};
}

/** The search engine as sent: none, SearXNG's address, or Brave (its key only when a new one is typed). */
function searchOf(draft: SettingsDraft): SearchSetting | null {
  if (draft.search === 'searxng') return { engine: 'searxng', url: draft.searchUrl.trim() };
  if (draft.search === 'brave')
    return { engine: 'brave', ...(draft.searchKey.trim() ? { key: draft.searchKey.trim() } : {}) };
  return null;
}

/** The change body of a valid form. */
export function settingsRequest(draft: SettingsDraft): SettingsRequest {
  return {
    name: draft.name.trim(),
    brandColor: draft.brandColor ? draft.brandColor.toLowerCase() : null,
    ...logoOf(draft.logo),
    defaultLanguage: draft.defaultLanguage,
    currency: draft.currency.trim().toUpperCase(),
    startingBalance: Number(draft.startingBalance),
    signup: draft.signup,
    allowedDomains: draft.signup === 'domains' ? domainsOf(draft.allowedDomains) : [],
    publicSharing: draft.publicSharing,
    apiAccess: draft.apiAccess,
    memory: draft.memory,
    memberBots: draft.memberBots,
    images: draft.images
      ? {
          provider: draft.imageProvider || null,
          model: draft.imageModel.trim(),
          price: Number(draft.imagePrice),
        }
      : null,
    search: searchOf(draft),
    speech: {
      transcriptionModel: draft.transcriptionModel.trim() || null,
      speechModel: draft.speechModel.trim() || null,
      voices: [...new Set(voicesOf(draft.voices))],
      provider: draft.speechProvider || null,
      transcriptionPrice: Number(draft.transcriptionPrice),
      speechPrice: Number(draft.speechPrice),
    },
  };
}

export const logoIsAcceptable = (file: LogoFile) =>
  (file.type === 'image/png' || file.type === 'image/svg+xml') && file.size <= maxLogoBytes;

const emptyDraft: SettingsDraft = {
  name: '',
  brandColor: '',
  logo: null,
  defaultLanguage: 'en',
  currency: 'EUR',
  startingBalance: '0',
  signup: 'open',
  allowedDomains: '',
  publicSharing: true,
  apiAccess: true,
  memory: true,
  memberBots: false,
  images: false,
  imageProvider: '',
  imageModel: '',
  imagePrice: '0',
  search: '',
  searchUrl: '',
  searchKey: '',
  savedSearchKey: '',
  transcriptionModel: '',
  speechModel: '',
  voices: '',
  speechProvider: '',
  transcriptionPrice: '0',
  speechPrice: '0',
};

export interface OrgSettingsContext {
  draft: SettingsDraft;
  problems: SettingsProblem[];
  loadError: string | null;
}

export type OrgSettingsEvent =
  | { type: 'LOAD' }
  | { type: 'RETRY' }
  | { type: 'CHANGE'; values: Partial<SettingsDraft> }
  | { type: 'PICK_LOGO'; file: LogoFile }
  | { type: 'REMOVE_LOGO' }
  | { type: 'SAVE' }
  | { type: 'RESET' };

/** The fields of the form, where the server's refusals are shown. */
const draftFields = Object.keys(emptyDraft) as (keyof SettingsDraft)[];

export const orgSettingsMachine = setup({
  types: {
    context: {} as OrgSettingsContext,
    events: {} as OrgSettingsEvent,
  },
  actors: {
    fetchSettings: fromPromise<OrganizationSettings>(async () => {
      throw new Error('fetchSettings is provided by the app');
    }),
    /** Stores the settings; answers them as stored (the logo sanitized). */
    saveSettings: fromPromise<OrganizationSettings, { settings: SettingsRequest }>(async () => {
      throw new Error('saveSettings is provided by the app');
    }),
  },
  guards: {
    isValid: ({ context }) => settingsProblems(context.draft).length === 0,
    logoIsAcceptable: ({ event }) => event.type === 'PICK_LOGO' && logoIsAcceptable(event.file),
  },
  actions: {
    /** Effect the app provides: the page takes the saved brand colour (`context.draft.brandColor`) at once. */
    applyBrand: () => {
      throw new Error('applyBrand is provided by the app');
    },
    assignSettings: assign((_, { settings }: { settings: OrganizationSettings }) => ({
      draft: draftOf(settings),
      problems: [],
      loadError: null,
    })),
    assignLoadError: assign((_, { error }: { error: unknown }) => ({ loadError: messageOf(error) })),
    assignValues: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      return {
        draft: { ...context.draft, ...event.values },
        problems: context.problems.filter(
          (problem) => problem.field === null || !(problem.field in event.values),
        ),
      };
    }),
    assignLogo: assign({
      draft: ({ context, event }) => {
        assertEvent(event, 'PICK_LOGO');
        return { ...context.draft, logo: event.file.dataUrl };
      },
      problems: ({ context }) => context.problems.filter((problem) => problem.field !== 'logo'),
    }),
    removeLogo: assign({
      draft: ({ context }) => ({ ...context.draft, logo: null }),
      problems: ({ context }) => context.problems.filter((problem) => problem.field !== 'logo'),
    }),
    refuseLogo: assign({
      problems: ({ context }) => [
        ...context.problems.filter((problem) => problem.field !== 'logo'),
        { field: 'logo' as const, message: 'A logo is a PNG or SVG file of 100 KB at most.' },
      ],
    }),
    assignDraftProblems: assign({ problems: ({ context }) => settingsProblems(context.draft) }),
    clearProblems: assign({ problems: [] }),
    assignSaveProblem: assign((_, { error }: { error: unknown }) => ({
      problems: [formProblem(error, draftFields)],
    })),
    forgetAll: assign({ draft: emptyDraft, problems: [], loadError: null }),
  },
}).createMachine({
  id: 'orgSettings',
  description: "The organization's settings: name, brand colour, logo, language, money and sign-up.",
  context: { draft: emptyDraft, problems: [], loadError: null },
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
      description: 'The settings could not be loaded; the admin can retry.',
      on: { RETRY: 'loading', LOAD: 'loading' },
    },
    ready: {
      description: 'The form, filled in; every change is checked before it is saved.',
      initial: 'editing',
      on: {
        CHANGE: {
          target: '.editing',
          actions: 'assignValues',
        },
        PICK_LOGO: [
          {
            guard: 'logoIsAcceptable',
            target: '.editing',
            actions: 'assignLogo',
          },
          { actions: 'refuseLogo' },
        ],
        REMOVE_LOGO: { target: '.editing', actions: 'removeLogo' },
      },
      states: {
        editing: {
          description: 'The admin changes the fields; problems show next to them.',
          on: {
            SAVE: [
              { guard: 'isValid', target: 'saving', actions: 'clearProblems' },
              { actions: 'assignDraftProblems' },
            ],
          },
        },
        saving: {
          description: 'Stores the settings; the server checks them too.',
          invoke: {
            id: 'saveSettings',
            src: 'saveSettings',
            input: ({ context }) => ({ settings: settingsRequest(context.draft) }),
            onDone: {
              target: 'saved',
              actions: [
                { type: 'assignSettings', params: ({ event }) => ({ settings: event.output }) },
                'applyBrand',
              ],
            },
            onError: { target: 'editing', actions: { type: 'assignSaveProblem', params: errorParams } },
          },
        },
        saved: {
          description: 'Saved, announced, and the brand colour applied.',
          on: {
            // What was just saved is valid: saving it again needs no check of its own.
            SAVE: { guard: 'isValid', target: 'saving', actions: 'clearProblems' },
          },
        },
      },
    },
  },
});
