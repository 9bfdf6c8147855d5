import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';
import type { NamedRef } from './projects';
import { withRecord } from './records';

export type { NamedRef };

/** Whom a member's bot is for: its maker, groups they are in, or the whole organization. */
export type BotVisibility = 'private' | 'groups' | 'organization';

/** A member's bot holds at most this many files, and offers at most this many starters (the server's limits). */
export const maxBotFiles = 20;
export const maxStarters = 6;
/** The longest instructions a member's bot keeps. */
export const maxBotInstructions = 8000;

/** A member's own bot as its maker edits it (GET /api/v1/user/me/bot). */
export interface MemberBotRecord {
  _id: string;
  name: string;
  description: string;
  instructions: string;
  starters: string[];
  /** The catalogue model it runs on. */
  model: string;
  files: (NamedRef & { type: string; size: number })[];
  tools: string[];
  visibility: BotVisibility;
  groups: string[];
  /** An administrator retired it: it answers no more. */
  retired: boolean;
}

/** What the form offers: models open to members' bots, the tools members may use, the member's groups. */
export interface MemberBotChoices {
  models: NamedRef[];
  tools: { name: string; description: string }[];
  groups: NamedRef[];
}

/** What the form sends to make or change a bot. */
export interface MemberBotDraft {
  name: string;
  description: string;
  instructions: string;
  starters: string[];
  model: string;
  files: string[];
  tools: string[];
  visibility: BotVisibility;
  groups: string[];
}

/** The form's fields, where a refusal shows. */
export const memberBotFields = [
  'name',
  'description',
  'instructions',
  'starters',
  'model',
  'files',
  'tools',
  'visibility',
  'groups',
] as const;
export type MemberBotField = (typeof memberBotFields)[number];

export interface MemberBotsContext {
  items: MemberBotRecord[];
  /** Why the list could not be fetched. */
  error: string | null;
  /** The bot the dialog is about; null while making one. */
  target: MemberBotRecord | null;
  choices: MemberBotChoices;
  /** Why the dialog's last request failed, at the field the server named when the form has it. */
  problem: { field: MemberBotField | null; message: string } | null;
}

export type MemberBotsEvent =
  | { type: 'LOAD' }
  | { type: 'RETRY' }
  | { type: 'NEW' }
  | { type: 'EDIT'; bot: MemberBotRecord }
  | { type: 'SAVE'; draft: MemberBotDraft }
  | { type: 'ASK_DELETE'; bot: MemberBotRecord }
  | { type: 'DELETE' }
  | { type: 'CANCEL' }
  | { type: 'RESET' };

/**
 * A draft the server could take: a name, a model, instructions within their limit, and at least one
 * group when it is shared with groups.
 */
export const draftIsComplete = (draft: MemberBotDraft) =>
  draft.name.trim() !== '' &&
  draft.model !== '' &&
  draft.instructions.length <= maxBotInstructions &&
  (draft.visibility !== 'groups' || draft.groups.length > 0);

const noChoices: MemberBotChoices = { models: [], tools: [], groups: [] };
const forgotten = {
  items: [],
  error: null,
  target: null,
  choices: noChoices,
  problem: null,
} satisfies MemberBotsContext;

export const memberBotsMachine = setup({
  types: {
    context: {} as MemberBotsContext,
    events: {} as MemberBotsEvent,
  },
  actors: {
    /** The member's own bots (GET /api/v1/user/me/bot). */
    fetchMemberBots: fromPromise<MemberBotRecord[]>(async () => {
      throw new Error('fetchMemberBots is provided by the app');
    }),
    /** What the form offers (GET /api/v1/model, GET /api/v1/user/me/bot/choices). */
    fetchBotChoices: fromPromise<MemberBotChoices>(async () => {
      throw new Error('fetchBotChoices is provided by the app');
    }),
    /** Makes (id null) or changes a bot; answers it as stored. */
    saveMemberBot: fromPromise<MemberBotRecord, { id: string | null; draft: MemberBotDraft }>(async () => {
      throw new Error('saveMemberBot is provided by the app');
    }),
    deleteMemberBot: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('deleteMemberBot is provided by the app');
    }),
  },
  guards: {
    isComplete: ({ event }) => event.type === 'SAVE' && draftIsComplete(event.draft),
  },
  actions: {
    /** Effect the app provides: the catalogue is fetched afresh, with the bot made, changed or gone. */
    announceBotsChanged: () => {
      throw new Error('announceBotsChanged is provided by the app');
    },
    assignItems: assign((_, { items }: { items: MemberBotRecord[] }) => ({ items, error: null })),
    assignListError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    assignTarget: assign({
      target: ({ event }) => {
        assertEvent(event, ['EDIT', 'ASK_DELETE']);
        return event.bot;
      },
      problem: null,
    }),
    clearTarget: assign({ target: null, problem: null }),
    assignChoices: assign((_, { choices }: { choices: MemberBotChoices }) => ({ choices })),
    assignProblem: assign((_, { error }: { error: unknown }) => ({
      problem: formProblem(error, memberBotFields),
    })),
    /** The bot as stored, in its place (a new one first), and the dialog closed. */
    storeBot: assign(({ context }, { bot }: { bot: MemberBotRecord }) => ({
      items: withRecord(context.items, bot),
      target: null,
      problem: null,
    })),
    removeTarget: assign(({ context }) => ({
      items: context.items.filter((item) => item._id !== context.target?._id),
      target: null,
      problem: null,
    })),
    forgetAll: assign(forgotten),
  },
}).createMachine({
  id: 'memberBots',
  description: "The member's own bots in the catalogue, and the dialogs that make, change and delete one.",
  type: 'parallel',
  context: forgotten,
  on: {
    // Logged out: the next user sees nothing of this one's bots.
    RESET: { target: ['.list.idle', '.dialog.closed'], actions: 'forgetAll' },
  },
  states: {
    list: {
      description: "The member's bots, listed under Your bots.",
      initial: 'idle',
      states: {
        idle: {
          id: 'memberBots.list.idle',
          description: 'Nothing listed yet; the catalogue asks when it appears.',
          on: { LOAD: 'loading' },
        },
        loading: {
          id: 'memberBots.list.loading',
          description: "Fetches the member's bots.",
          invoke: {
            id: 'fetchMemberBots',
            src: 'fetchMemberBots',
            onDone: {
              target: 'loaded',
              actions: { type: 'assignItems', params: ({ event }) => ({ items: event.output }) },
            },
            onError: { target: 'failed', actions: { type: 'assignListError', params: errorParams } },
          },
        },
        loaded: {
          id: 'memberBots.list.loaded',
          description: 'Listed.',
        },
        failed: {
          id: 'memberBots.list.failed',
          description: 'The bots could not be fetched; they can be asked for again.',
          on: { RETRY: 'loading' },
        },
      },
    },
    dialog: {
      description: 'Making, changing or deleting one bot, each in its dialog.',
      initial: 'closed',
      states: {
        closed: {
          id: 'memberBots.dialog.closed',
          description: 'No dialog open.',
          on: {
            NEW: { target: 'loadingChoices', actions: 'clearTarget' },
            EDIT: { target: 'loadingChoices', actions: 'assignTarget' },
            ASK_DELETE: { target: 'confirmingDelete', actions: 'assignTarget' },
          },
        },
        loadingChoices: {
          id: 'memberBots.dialog.loadingChoices',
          description: 'Fetches the models, tools and groups the form offers.',
          invoke: {
            id: 'fetchBotChoices',
            src: 'fetchBotChoices',
            onDone: {
              target: 'editing',
              actions: { type: 'assignChoices', params: ({ event }) => ({ choices: event.output }) },
            },
            onError: { target: 'editing', actions: { type: 'assignProblem', params: errorParams } },
          },
          on: { CANCEL: { target: 'closed', actions: 'clearTarget' } },
        },
        editing: {
          id: 'memberBots.dialog.editing',
          description:
            'The form: name, description, instructions, starters, model, files, tools, who may use it.',
          on: {
            SAVE: { guard: 'isComplete', target: 'saving' },
            CANCEL: { target: 'closed', actions: 'clearTarget' },
          },
        },
        saving: {
          id: 'memberBots.dialog.saving',
          description: 'Makes or changes the bot (the name travels RSA-encrypted).',
          invoke: {
            id: 'saveMemberBot',
            src: 'saveMemberBot',
            input: ({ context, event }) => {
              assertEvent(event, 'SAVE');
              return { id: context.target?._id ?? null, draft: event.draft };
            },
            onDone: {
              target: 'closed',
              actions: [
                { type: 'storeBot', params: ({ event }) => ({ bot: event.output }) },
                'announceBotsChanged',
              ],
            },
            onError: { target: 'editing', actions: { type: 'assignProblem', params: errorParams } },
          },
        },
        confirmingDelete: {
          id: 'memberBots.dialog.confirmingDelete',
          description: 'Asks before the bot is deleted.',
          on: {
            DELETE: 'deleting',
            CANCEL: { target: 'closed', actions: 'clearTarget' },
          },
        },
        deleting: {
          id: 'memberBots.dialog.deleting',
          description: 'Deletes the bot (kept only for the conversations that name it).',
          invoke: {
            id: 'deleteMemberBot',
            src: 'deleteMemberBot',
            input: ({ context }) => ({ id: context.target?._id ?? '' }),
            onDone: { target: 'closed', actions: ['removeTarget', 'announceBotsChanged'] },
            onError: { target: 'confirmingDelete', actions: { type: 'assignProblem', params: errorParams } },
          },
        },
      },
    },
  },
});
