import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';

/** A catalogue model as members see it (`GET /api/v1/model`): its prices, for the picker to show. */
export interface MemberModel {
  _id: string;
  name: string;
  /** Of one reply. */
  price: number;
  /** Per million tokens read and written, on top of the reply's price. */
  inputPrice?: number;
  outputPrice?: number;
}

/** A conversation's temperature and maximum reply length (where its bot lets members set them). */
export interface ReplyParameters {
  temperature?: number;
  maxTokens?: number;
}

/** What the conversation holds of its replies' settings: its model (null: none to pick) and parameters. */
export interface TopicSettings {
  model: string | null;
  parameters: ReplyParameters;
}

/** The settings form as typed: empty for the model's own. */
export interface ParametersDraft {
  temperature: string;
  maxTokens: string;
}

export interface ParametersProblem {
  field: keyof ParametersDraft | null;
  message: string;
}

export interface ChatModelContext extends TopicSettings {
  /** The conversation on screen; null for a bot's new chat (nothing to set until it exists). */
  topicId: string | null;
  /** The models the member may use, with their prices; empty until (or unless) they load. */
  prices: MemberModel[];
  draft: ParametersDraft;
  problems: ParametersProblem[];
  /** The model being saved as the conversation's, shown picked meanwhile. */
  picked: string | null;
  /** Why the last choice of a model did not go through. */
  error: string | null;
}

/** The conversation on screen (one actor a conversation): its id, model and parameters. */
export type ChatModelInput = { topicId: string | null } & TopicSettings;

export type ChatModelEvent =
  /** The picker is on screen: the models' prices are wanted. */
  | { type: 'LOAD_PRICES' }
  | { type: 'CHOOSE'; model: string }
  | { type: 'OPEN_SETTINGS' }
  | { type: 'CHANGE'; values: Partial<ParametersDraft> }
  | { type: 'SAVE' }
  | { type: 'CANCEL' };

/** The highest temperature providers take. */
export const maxTemperature = 2;

const draftOf = (parameters: ReplyParameters): ParametersDraft => ({
  temperature: parameters.temperature === undefined ? '' : String(parameters.temperature),
  maxTokens: parameters.maxTokens === undefined ? '' : String(parameters.maxTokens),
});

/** Every problem of the settings form the member can fix before it is sent. */
export function parametersProblems(draft: ParametersDraft): ParametersProblem[] {
  const problems: ParametersProblem[] = [];
  const temperature = draft.temperature.trim().replace(',', '.');
  if (
    temperature !== '' &&
    !(
      Number.isFinite(Number(temperature)) &&
      Number(temperature) >= 0 &&
      Number(temperature) <= maxTemperature
    )
  )
    problems.push({ field: 'temperature', message: 'Enter a temperature from 0 to 2.' });
  const maxTokens = draft.maxTokens.trim();
  if (maxTokens !== '' && !(Number.isInteger(Number(maxTokens)) && Number(maxTokens) >= 1))
    problems.push({ field: 'maxTokens', message: 'Enter a whole number of tokens of 1 or more.' });
  return problems;
}

/** The parameters of a valid form: what is left empty is the model's own. */
export function parametersOf(draft: ParametersDraft): ReplyParameters {
  const temperature = draft.temperature.trim().replace(',', '.');
  const maxTokens = draft.maxTokens.trim();
  return {
    ...(temperature === '' ? {} : { temperature: Number(temperature) }),
    ...(maxTokens === '' ? {} : { maxTokens: Number(maxTokens) }),
  };
}

/** The form's fields, where the server's refusals are shown (it names `parameters.maxTokens`). */
const draftFields = ['temperature', 'maxTokens'] as const;
const fieldOfParameter = (error: unknown) => {
  const field = (error as { field?: unknown } | null)?.field;
  return typeof field === 'string'
    ? Object.assign(new Error(messageOf(error)), { field: field.split('.').at(-1) })
    : error;
};

const settingsOutput = ({ event }: { event: { output: TopicSettings } }) => ({ settings: event.output });

export const chatModelMachine = setup({
  types: {
    context: {} as ChatModelContext,
    events: {} as ChatModelEvent,
    input: {} as ChatModelInput,
  },
  actors: {
    /** The models the member may use, with their prices (`GET /api/v1/model`). */
    fetchPrices: fromPromise<MemberModel[]>(async () => {
      throw new Error('fetchPrices is provided by the app');
    }),
    /** The conversation's model (`PATCH /api/v1/topic/:id { model }`); answers the topic's settings. */
    saveChoice: fromPromise<TopicSettings, { topicId: string; model: string }>(async () => {
      throw new Error('saveChoice is provided by the app');
    }),
    /** Its parameters (`PATCH /api/v1/topic/:id { parameters }`); answers the topic's settings. */
    saveParameters: fromPromise<TopicSettings, { topicId: string; parameters: ReplyParameters }>(async () => {
      throw new Error('saveParameters is provided by the app');
    }),
  },
  guards: {
    hasTopic: ({ context }) => context.topicId !== null,
    /** Another model than the conversation's, in a conversation that exists. */
    isOtherModel: ({ context, event }) => {
      assertEvent(event, 'CHOOSE');
      return context.topicId !== null && event.model !== context.model;
    },
    isValid: ({ context }) => parametersProblems(context.draft).length === 0,
  },
  actions: {
    assignPrices: assign((_, { prices }: { prices: MemberModel[] }) => ({ prices })),
    /** Shown picked at once; the server's answer makes it the conversation's (or it goes back). */
    assignChoice: assign({
      picked: ({ event }) => {
        assertEvent(event, 'CHOOSE');
        return event.model;
      },
      error: null,
    }),
    assignSettings: assign((_, { settings }: { settings: TopicSettings }) => ({
      model: settings.model,
      parameters: settings.parameters,
      picked: null,
    })),
    /** The choice did not go through: the conversation keeps the model it had. */
    assignChoiceError: assign((_, { error }: { error: unknown }) => ({
      picked: null,
      error: messageOf(error),
    })),
    openDraft: assign(({ context }) => ({ draft: draftOf(context.parameters), problems: [] })),
    assignValues: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      return {
        draft: { ...context.draft, ...event.values },
        problems: context.problems.filter(
          (problem) => problem.field === null || !(problem.field in event.values),
        ),
      };
    }),
    assignDraftProblems: assign({ problems: ({ context }) => parametersProblems(context.draft) }),
    clearProblems: assign({ problems: [] }),
    assignSaveProblem: assign((_, { error }: { error: unknown }) => ({
      problems: [formProblem(fieldOfParameter(error), draftFields)],
    })),
  },
}).createMachine({
  id: 'chatModel',
  description:
    "A conversation's model and reply settings: the picker (with each model's price) and the settings form, both saved on the conversation.",
  type: 'parallel',
  context: ({ input }) => ({
    topicId: input.topicId,
    model: input.model,
    parameters: input.parameters,
    prices: [],
    draft: { temperature: '', maxTokens: '' },
    problems: [],
    picked: null,
    error: null,
  }),
  states: {
    prices: {
      description: "The prices of the models the member may use, for the picker's choices.",
      initial: 'idle',
      states: {
        idle: {
          description: 'Not wanted yet: no picker has been shown.',
          on: { LOAD_PRICES: 'loading' },
        },
        loading: {
          description: 'Asks for the models the member may use.',
          invoke: {
            id: 'fetchPrices',
            src: 'fetchPrices',
            onDone: {
              target: 'loaded',
              actions: { type: 'assignPrices', params: ({ event }) => ({ prices: event.output }) },
            },
            onError: 'failed',
          },
        },
        loaded: { description: 'Each model in the picker shows its price.' },
        failed: { description: 'The prices could not be read: the picker shows the names alone.' },
      },
    },
    choice: {
      description: 'The model the conversation replies with.',
      initial: 'idle',
      states: {
        idle: {
          description: 'The picker shows the conversation’s model, and why the last choice failed if it did.',
          on: {
            CHOOSE: { guard: 'isOtherModel', target: 'choosing', actions: 'assignChoice' },
          },
        },
        choosing: {
          description: 'Saves the model picked on the conversation; the next replies are written by it.',
          invoke: {
            id: 'saveChoice',
            src: 'saveChoice',
            input: ({ context }) => ({ topicId: context.topicId ?? '', model: context.picked ?? '' }),
            onDone: { target: 'idle', actions: { type: 'assignSettings', params: settingsOutput } },
            onError: { target: 'idle', actions: { type: 'assignChoiceError', params: errorParams } },
          },
        },
      },
    },
    settings: {
      description: 'The chat’s settings: temperature and maximum reply length, where the bot allows them.',
      initial: 'closed',
      states: {
        closed: {
          description: 'The settings dialog is closed.',
          on: { OPEN_SETTINGS: { guard: 'hasTopic', target: 'open', actions: 'openDraft' } },
        },
        open: {
          description: 'The dialog shows the conversation’s settings; problems show next to their fields.',
          on: {
            CHANGE: { actions: 'assignValues' },
            SAVE: [
              { guard: 'isValid', target: 'saving', actions: 'clearProblems' },
              { actions: 'assignDraftProblems' },
            ],
            CANCEL: 'closed',
          },
        },
        saving: {
          description: 'Saves the settings on the conversation; the server checks them against its model.',
          invoke: {
            id: 'saveParameters',
            src: 'saveParameters',
            input: ({ context }) => ({
              topicId: context.topicId ?? '',
              parameters: parametersOf(context.draft),
            }),
            onDone: { target: 'closed', actions: { type: 'assignSettings', params: settingsOutput } },
            onError: { target: 'open', actions: { type: 'assignSaveProblem', params: errorParams } },
          },
        },
      },
    },
  },
});
