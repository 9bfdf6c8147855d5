import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';

/** Built-in engines, an OpenAI-compatible model, or image generation (every message a prompt). */
export type BotPlatform = 'builtin' | 'openai' | 'image';
export type BotEngine = 'eliza' | 'calculator' | 'translator' | 'librarian';
export const botEngines: BotEngine[] = ['eliza', 'calculator', 'translator', 'librarian'];
/** The built-in engine that reads knowledge bases (model bots all can). */
export const readingEngine: BotEngine = 'librarian';
/** How much a model bot reads when nobody says otherwise, in tokens. */
export const defaultContextTokens = 8000;
/** The context sizes the server takes, in tokens. */
export const contextTokenRange = { min: 256, max: 10_000_000 } as const;

/** A bot as the admin area edits it (`/api/v1/admin/bot`): its categories by id. */
export interface AdminBot {
  _id: string;
  name: string;
  description: string;
  platform: BotPlatform;
  engine?: BotEngine | null;
  /** The organization's provider; none: the server's own (OPENAI_BASE_URL). */
  provider?: string | null;
  model?: string | null;
  systemPrompt?: string | null;
  temperature?: number | null;
  /** A model bot that is sent the images of a conversation. */
  vision?: boolean;
  /** How much a model bot reads, in tokens. */
  contextTokens?: number;
  /** The knowledge bases it searches, by id (model bots and the Librarian). */
  knowledge?: string[];
  price: number;
  categories: string[];
  /** The groups whose members may use it, by id; none: everyone. */
  groups?: string[];
  /** The tools a model bot may call, by name (built-in, or `<server>__<tool>` of an MCP server). */
  tools?: string[];
  /** Of its tools, those whose every call waits for the person chatting to allow it. */
  askFirst?: string[];
  /** The catalogue models a model bot offers, by id, its default first (none: its own provider and model). */
  models?: string[];
  /** Members may set a conversation's temperature and reply length. */
  userParameters?: boolean;
  active: boolean;
  position?: number | null;
  /** Who made it, for a member's own bot: theirs to change, an admin's only to retire. */
  owner?: { _id: string; name: string };
  /** A member's bot an admin retired (undone by setting it false). */
  retired?: boolean;
}

/** The form as the admin fills it in: numbers as typed. */
export interface BotDraft {
  name: string;
  description: string;
  platform: BotPlatform;
  engine: BotEngine | '';
  provider: string;
  model: string;
  systemPrompt: string;
  temperature: string;
  vision: boolean;
  contextTokens: string;
  knowledge: string[];
  price: string;
  categories: string[];
  groups: string[];
  tools: string[];
  askFirst: string[];
  /** Catalogue models, in order: the first is the default. */
  models: string[];
  userParameters: boolean;
  active: boolean;
  position: string;
}

/** What a bot's form offers to choose from: the organization's providers, categories, knowledge bases and groups. */
export interface BotChoice {
  _id: string;
  name: string;
}
/** A tool a model bot may be given (`GET /api/v1/admin/tool`): built-in, or an MCP server's. */
export interface ToolChoice {
  name: string;
  description: string;
  source: 'builtin' | 'mcp';
  server?: BotChoice;
}
export interface BotEditorData {
  /** null for a new bot. */
  bot: AdminBot | null;
  providers: BotChoice[];
  categories: BotChoice[];
  knowledgeBases: BotChoice[];
  groups: BotChoice[];
  tools?: ToolChoice[];
  /** The organization's model catalogue. */
  catalogue?: BotChoice[];
  /** The server has a provider of its own (OPENAI_BASE_URL), whose models a bot naming no provider uses. */
  serverProvider?: boolean;
}

/** What the bot's create or change call sends: the contract's body, numbers as numbers. */
export type BotRequest = Omit<AdminBot, '_id'>;

export interface TryLine {
  role: 'user' | 'bot';
  text: string;
}

export interface FieldProblem {
  field: keyof BotDraft | null;
  message: string;
}

export interface BotEditorContext {
  botId: string | null;
  draft: BotDraft;
  providers: BotChoice[];
  categories: BotChoice[];
  knowledgeBases: BotChoice[];
  groups: BotChoice[];
  tools: ToolChoice[];
  /** The organization's model catalogue, which a model bot may offer. */
  catalogue: BotChoice[];
  /** The server has a provider of its own: its models are listed for a bot naming no provider. */
  serverProvider: boolean;
  /** The tools the bot had when loaded or last saved: emptying them is sent, so it loses them. */
  savedTools: string[];
  /** The form's problems, each next to its field (null: about the whole form). */
  problems: FieldProblem[];
  loadError: string | null;
  models: string[];
  /** The provider the model list is for ('': the server's own). */
  modelsFor: string | null;
  modelsError: string | null;
  transcript: TryLine[];
  tryError: string | null;
}

export type BotEditorEvent =
  | { type: 'RETRY' }
  | { type: 'CHANGE'; values: Partial<BotDraft> }
  | { type: 'SAVE' }
  | { type: 'RETRY_MODELS' }
  | { type: 'SEND_TRY'; text: string }
  | { type: 'TRY_TOKEN'; text: string }
  | { type: 'TRY_DONE' }
  | { type: 'TRY_FAILED'; message: string }
  | { type: 'STOP_TRY' }
  | { type: 'CLEAR_TRY' };

export const emptyDraft: BotDraft = {
  name: '',
  description: '',
  platform: 'openai',
  engine: '',
  provider: '',
  model: '',
  systemPrompt: '',
  temperature: '',
  vision: false,
  contextTokens: String(defaultContextTokens),
  knowledge: [],
  price: '0',
  categories: [],
  groups: [],
  tools: [],
  askFirst: [],
  models: [],
  userParameters: false,
  active: true,
  position: '',
};

/** The form filled in from a stored bot. */
export function draftOf(bot: AdminBot | null): BotDraft {
  if (!bot) return emptyDraft;
  return {
    name: bot.name,
    description: bot.description,
    platform: bot.platform,
    engine: bot.engine ?? '',
    provider: bot.provider ?? '',
    model: bot.model ?? '',
    systemPrompt: bot.systemPrompt ?? '',
    temperature: bot.temperature === null || bot.temperature === undefined ? '' : String(bot.temperature),
    vision: bot.vision ?? false,
    contextTokens: String(bot.contextTokens ?? defaultContextTokens),
    knowledge: bot.knowledge ?? [],
    price: String(bot.price),
    categories: bot.categories,
    groups: bot.groups ?? [],
    tools: bot.tools ?? [],
    askFirst: bot.askFirst ?? [],
    models: bot.models ?? [],
    userParameters: bot.userParameters ?? false,
    active: bot.active,
    position: bot.position === null || bot.position === undefined ? '' : String(bot.position),
  };
}

const isNumber = (text: string) => text.trim() !== '' && Number.isFinite(Number(text));

/** Every problem of the form the admin can fix before it is sent. */
export function draftProblems(draft: BotDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!draft.name.trim()) problems.push({ field: 'name', message: 'Enter the name people will see.' });
  if (!isNumber(draft.price) || Number(draft.price) < 0)
    problems.push({ field: 'price', message: 'Enter a price of 0 or more.' });
  if (draft.platform === 'builtin' && !draft.engine)
    problems.push({ field: 'engine', message: 'Choose what the bot runs.' });
  // A bot offering catalogue models runs on them: a model of its own is not needed.
  if (draft.platform === 'openai' && !draft.model.trim() && draft.models.length === 0)
    problems.push({ field: 'model', message: 'Enter or choose a model.' });
  if (
    draft.platform === 'openai' &&
    draft.temperature.trim() !== '' &&
    (!isNumber(draft.temperature) || Number(draft.temperature) < 0 || Number(draft.temperature) > 2)
  )
    problems.push({ field: 'temperature', message: 'Enter a temperature from 0 to 2.' });
  if (
    draft.platform === 'openai' &&
    !(
      Number.isInteger(Number(draft.contextTokens)) &&
      draft.contextTokens.trim() !== '' &&
      Number(draft.contextTokens) >= contextTokenRange.min &&
      Number(draft.contextTokens) <= contextTokenRange.max
    )
  )
    problems.push({
      field: 'contextTokens',
      message: 'Enter a whole number of tokens from 256 to 10,000,000.',
    });
  if (draft.platform === 'builtin' && draft.knowledge.length > 0 && draft.engine !== readingEngine)
    problems.push({
      field: 'knowledge',
      message: 'Of the built-in bots only the Librarian reads knowledge bases.',
    });
  if (
    draft.position.trim() !== '' &&
    !(Number.isInteger(Number(draft.position)) && Number(draft.position) >= 0)
  )
    problems.push({ field: 'position', message: 'Enter a whole number of 0 or more.' });
  return problems;
}

/**
 * The create or change body of a valid form: only what the bot's platform uses. A model bot's tools
 * are sent when it has some, or had some (`savedTools`): a bot that never had any is sent none.
 */
export function botRequest(draft: BotDraft, savedTools: string[] = []): BotRequest {
  const common = {
    name: draft.name.trim(),
    description: draft.description.trim(),
    price: Number(draft.price),
    categories: draft.categories,
    groups: draft.groups,
    active: draft.active,
    ...(draft.position.trim() !== '' ? { position: Number(draft.position) } : {}),
  };
  if (draft.platform === 'builtin')
    return {
      ...common,
      platform: 'builtin',
      engine: (draft.engine || 'eliza') as BotEngine,
      knowledge: draft.engine === readingEngine ? draft.knowledge : [],
      // Only a model bot offers catalogue models or lets members tune its replies.
      models: [],
      userParameters: false,
    };
  // An image bot draws with the organization's image settings: nothing of its own to send.
  if (draft.platform === 'image') return { ...common, platform: 'image', models: [], userParameters: false };
  return {
    ...common,
    platform: 'openai',
    provider: draft.provider || null,
    model: draft.model.trim() || null,
    systemPrompt: draft.systemPrompt,
    ...(draft.temperature.trim() !== '' ? { temperature: Number(draft.temperature) } : {}),
    vision: draft.vision,
    contextTokens: Number(draft.contextTokens),
    knowledge: draft.knowledge,
    models: draft.models,
    userParameters: draft.userParameters,
    ...(draft.tools.length || savedTools.length
      ? { tools: draft.tools, askFirst: draft.askFirst.filter((name) => draft.tools.includes(name)) }
      : {}),
  };
}

/** The fields of the form, where the server's refusals are shown. */
const draftFields = Object.keys(emptyDraft) as (keyof BotDraft)[];

export const botEditorMachine = setup({
  types: {
    context: {} as BotEditorContext,
    events: {} as BotEditorEvent,
    input: {} as { botId: string | null },
  },
  actors: {
    /** The bot (none for a new one) with the providers and categories the form offers. */
    loadEditor: fromPromise<BotEditorData, { botId: string | null }>(async () => {
      throw new Error('loadEditor is provided by the app');
    }),
    /** Creates the bot (no id) or changes it; answers the bot as stored. */
    saveBot: fromPromise<AdminBot, { botId: string | null; request: BotRequest }>(async () => {
      throw new Error('saveBot is provided by the app');
    }),
    /** The model ids the provider's `GET /models` lists ('': the server's own provider). */
    fetchModels: fromPromise<string[], { provider: string }>(async () => {
      throw new Error('fetchModels is provided by the app');
    }),
    /** Streams the saved bot's reply to a message, free of charge: TRY_TOKEN…, then TRY_DONE or TRY_FAILED. */
    streamTry: fromCallback<BotEditorEvent, { botId: string; text: string; history: TryLine[] }>(() => {
      throw new Error('streamTry is provided by the app');
    }),
  },
  guards: {
    isValid: ({ context }) => draftProblems(context.draft).length === 0,
    /** Not saved before: the bot is created, not changed. */
    isNew: ({ context }) => context.botId === null,
    needsModels: ({ context }) =>
      context.draft.platform === 'openai' &&
      (context.draft.provider !== '' || context.serverProvider) &&
      context.draft.provider !== context.modelsFor,
    canTry: ({ context, event }) =>
      context.botId !== null && event.type === 'SEND_TRY' && event.text.trim() !== '',
  },
  actions: {
    /**
     * Effect the app provides: the bot list is read afresh, and a new bot's address (`context.botId`, once
     * saved) becomes its own.
     */
    announceSaved: (_, _params: { created: boolean }) => {
      throw new Error('announceSaved is provided by the app');
    },
    assignData: assign((_, { data }: { data: BotEditorData }) => ({
      draft: draftOf(data.bot),
      providers: data.providers,
      categories: data.categories,
      knowledgeBases: data.knowledgeBases,
      groups: data.groups ?? [],
      tools: data.tools ?? [],
      catalogue: data.catalogue ?? [],
      serverProvider: data.serverProvider ?? false,
      savedTools: data.bot?.tools ?? [],
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
    assignDraftProblems: assign({ problems: ({ context }) => draftProblems(context.draft) }),
    clearProblems: assign({ problems: [] }),
    assignSaved: assign((_, { bot }: { bot: AdminBot }) => ({
      botId: bot._id,
      draft: draftOf(bot),
      savedTools: bot.tools ?? [],
      problems: [],
    })),
    assignSaveProblem: assign((_, { error }: { error: unknown }) => ({
      problems: [formProblem(error, draftFields)],
    })),
    /** The models of the provider the draft names. */
    assignModels: assign(({ context }, { models }: { models: string[] }) => ({
      models,
      modelsFor: context.draft.provider,
      modelsError: null,
    })),
    assignModelsError: assign(({ context }, { error }: { error: unknown }) => ({
      models: [],
      modelsFor: context.draft.provider,
      modelsError: messageOf(error),
    })),
    appendQuestion: assign({
      transcript: ({ context, event }) => {
        assertEvent(event, 'SEND_TRY');
        return [
          ...context.transcript,
          { role: 'user' as const, text: event.text.trim() },
          { role: 'bot' as const, text: '' },
        ];
      },
      tryError: null,
    }),
    appendToken: assign({
      transcript: ({ context, event }) => {
        assertEvent(event, 'TRY_TOKEN');
        const last = context.transcript.at(-1);
        if (last?.role !== 'bot') return context.transcript;
        return [...context.transcript.slice(0, -1), { ...last, text: last.text + event.text }];
      },
    }),
    assignTryError: assign({
      tryError: ({ event }) => {
        assertEvent(event, 'TRY_FAILED');
        return event.message;
      },
    }),
    clearTranscript: assign({ transcript: [], tryError: null }),
  },
}).createMachine({
  id: 'botEditor',
  description: "One bot's form: load, change, check, save; its model list; and a free try-out chat.",
  type: 'parallel',
  context: ({ input }) => ({
    botId: input.botId,
    draft: emptyDraft,
    providers: [],
    categories: [],
    knowledgeBases: [],
    groups: [],
    tools: [],
    catalogue: [],
    serverProvider: false,
    savedTools: [],
    problems: [],
    loadError: null,
    models: [],
    modelsFor: null,
    modelsError: null,
    transcript: [],
    tryError: null,
  }),
  states: {
    form: {
      description: 'The bot being edited.',
      initial: 'loading',
      states: {
        loading: {
          description: 'Fetches the bot, the providers and the categories.',
          invoke: {
            id: 'loadEditor',
            src: 'loadEditor',
            input: ({ context }) => ({ botId: context.botId }),
            onDone: {
              target: 'editing',
              actions: { type: 'assignData', params: ({ event }) => ({ data: event.output }) },
            },
            onError: { target: 'failed', actions: { type: 'assignLoadError', params: errorParams } },
          },
        },
        failed: {
          description: 'The form could not be loaded; the admin can retry.',
          on: { RETRY: 'loading' },
        },
        editing: {
          description: 'The admin changes the fields; problems show next to them.',
          on: {
            CHANGE: {
              actions: 'assignValues',
            },
            SAVE: [
              { guard: 'isValid', target: 'saving', actions: 'clearProblems' },
              { actions: 'assignDraftProblems' },
            ],
          },
        },
        saving: {
          description: 'Creates or changes the bot; the server checks it too.',
          invoke: {
            id: 'saveBot',
            src: 'saveBot',
            input: ({ context }) => ({
              botId: context.botId,
              request: botRequest(context.draft, context.savedTools),
            }),
            onDone: [
              {
                guard: 'isNew',
                target: 'saved',
                actions: [
                  { type: 'assignSaved', params: ({ event }) => ({ bot: event.output }) },
                  { type: 'announceSaved', params: { created: true } },
                ],
              },
              {
                target: 'saved',
                actions: [
                  { type: 'assignSaved', params: ({ event }) => ({ bot: event.output }) },
                  { type: 'announceSaved', params: { created: false } },
                ],
              },
            ],
            onError: { target: 'editing', actions: { type: 'assignSaveProblem', params: errorParams } },
          },
        },
        saved: {
          description: 'Saved, and announced; a change edits it again.',
          on: {
            CHANGE: {
              target: 'editing',
              actions: 'assignValues',
            },
            // What was just saved is valid: saving it again needs no check of its own.
            SAVE: { guard: 'isValid', target: 'saving', actions: 'clearProblems' },
          },
        },
      },
    },
    models: {
      description: "The model ids of the chosen provider, for the model field's suggestions.",
      initial: 'idle',
      states: {
        idle: {
          description: 'The built-in platform, or no provider when the server has none: nothing to list.',
          always: { guard: 'needsModels', target: 'loading' },
        },
        loading: {
          description: "Asks the provider's model list through the server.",
          invoke: {
            id: 'fetchModels',
            src: 'fetchModels',
            input: ({ context }) => ({ provider: context.draft.provider }),
            onDone: {
              target: 'loaded',
              actions: { type: 'assignModels', params: ({ event }) => ({ models: event.output }) },
            },
            onError: { target: 'failed', actions: { type: 'assignModelsError', params: errorParams } },
          },
        },
        loaded: {
          description: "Listed; choosing another provider lists that one's.",
          always: { guard: 'needsModels', target: 'loading' },
        },
        failed: {
          description:
            'The provider did not answer its model list; the model can still be typed, or the list asked for again.',
          always: { guard: 'needsModels', target: 'loading' },
          on: { RETRY_MODELS: 'loading' },
        },
      },
    },
    tryOut: {
      description: 'A chat with the saved bot that charges nobody.',
      initial: 'idle',
      states: {
        idle: {
          description: 'Waits for a message; only a saved bot can be tried.',
          on: {
            SEND_TRY: {
              guard: 'canTry',
              target: 'replying',
              actions: 'appendQuestion',
            },
            CLEAR_TRY: { actions: 'clearTranscript' },
          },
        },
        replying: {
          description: "The bot's reply streams in; Stop ends it.",
          invoke: {
            id: 'streamTry',
            src: 'streamTry',
            input: ({ context, event }) => {
              assertEvent(event, 'SEND_TRY');
              return {
                botId: context.botId ?? '',
                text: event.text.trim(),
                history: context.transcript.slice(0, -2),
              };
            },
          },
          on: {
            TRY_TOKEN: { actions: 'appendToken' },
            TRY_DONE: 'idle',
            TRY_FAILED: {
              target: 'idle',
              actions: 'assignTryError',
            },
            STOP_TRY: 'idle',
          },
        },
      },
    },
  },
});
