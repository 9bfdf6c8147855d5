import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, problemOf } from './errors';
import {
  emptyList,
  type Page,
  type PagedList,
  pagedListActions,
  pagedListGuards,
  pagedListRegion,
} from './pagedList';

/** A record an admin list shows: the bots, categories, providers, models, groups, MCP servers, tools, invitations and audit entries of the organization. */
export interface AdminRecord {
  _id: string;
}

/** A bot category, as the admin area lists and edits it. */
export interface CategoryRecord extends AdminRecord {
  name: string;
}

/** An OpenAI-compatible provider of the organization; its key is never sent back, only its end ("••••1234"). */
export interface ProviderRecord extends AdminRecord {
  name: string;
  baseUrl: string;
  /** The masked key. */
  apiKey: string;
}

/**
 * A model of the organization's catalogue: where it runs (one of its providers; null: the server's
 * own model server) under the provider's name for it, what a reply costs (and, optionally, per
 * million tokens read and written), and what it can do.
 */
export interface ModelRecord extends AdminRecord {
  name: string;
  provider: string | null;
  model: string;
  price: number;
  inputPrice?: number;
  outputPrice?: number;
  vision: boolean;
  contextTokens: number;
  /** Members may build their own bots on it. */
  memberBots: boolean;
}

/** A model as its form sends it: an empty token price is sent as null (none, or none any more). */
export type ModelRequest = Omit<ModelRecord, '_id' | 'inputPrice' | 'outputPrice'> & {
  inputPrice: number | null;
  outputPrice: number | null;
};

/** A member of a group, by name. */
export interface GroupMember {
  _id: string;
  displayName: string;
  username: string;
}

/**
 * A group of members: the bots limited to it are theirs, and each member may spend up to
 * `monthlyBudget` a calendar month (UTC; null: no limit).
 */
export interface GroupRecord extends AdminRecord {
  name: string;
  monthlyBudget: number | null;
  /** The identity provider's group names whose members belong here (at each SSO login). */
  idpGroups: string[];
  members: GroupMember[];
  /** The bots limited to it (ids). */
  bots: string[];
}

/** A bot, by name: one that uses a tool of an MCP server. */
export interface NamedRecord {
  _id: string;
  name: string;
}

/**
 * An MCP server of the organization (Streamable HTTP) with the tools it listed when added or changed
 * (named `<server>__<tool>`); its token is never sent back, only its end ("••••1234").
 */
export interface McpServerRecord extends AdminRecord {
  name: string;
  url: string;
  tools: { name: string; description: string }[];
  token: string | null;
  /** Why the last call could not reach it, until one does. */
  error?: string;
  /** The bots that use one of its tools. */
  bots: NamedRecord[];
  updatedAt: string;
}

/** A tool the organization's bots may use; its `_id` is its name. */
export interface ToolRecord extends AdminRecord {
  name: string;
  description: string;
  source: 'builtin' | 'mcp';
  server?: NamedRecord;
}

/**
 * The members' thumbs on the replies of one bot with one model (null: the bot's own model, or one removed
 * since; a null bot was deleted since), and the newest reasons they gave; its `_id` is made of both.
 */
export interface FeedbackFigures extends AdminRecord {
  bot: NamedRecord | null;
  model: NamedRecord | null;
  up: number;
  down: number;
  /** The newest reasons, newest first, each with the thumb it came with. */
  reasons: { text: string; rating: 'up' | 'down'; at: string }[];
}

/**
 * An invitation not accepted yet: resent (a change of it: a new code and time) or revoked (its
 * removal). One past `expiresAt` admits nobody until resent.
 */
export interface InvitationRecord extends AdminRecord {
  email: string;
  role: 'owner' | 'admin' | 'member';
  invitedAt: string;
  expiresAt: string;
}

/** One admin action, as the audit log keeps it; `target` is the `_id` acted on. */
export interface AuditEntry extends AdminRecord {
  at: string;
  /** The user who acted (their `_id`, or 'operator' for the command line), and their name then. */
  actor: string;
  actorName: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  /** The name of each record id the entry holds (its target, a bot's categories…), as the server knows it. */
  names: Record<string, string>;
}

/** A page of a list; `next` continues it, null at its end (lists without paging answer one page). */
export type AdminPage<R extends AdminRecord = AdminRecord> = Page<R>;

/** What the admin asked for: a new record, a change to one, or its removal. */
export type AdminChange =
  | { kind: 'create'; values: Record<string, unknown> }
  | { kind: 'update'; id: string; values: Record<string, unknown> }
  | { kind: 'remove'; id: string };

/** What went wrong, in a sentence; `field` names the form field the server says it is about. */
export interface AdminProblem {
  message: string;
  field?: string;
}

export interface AdminListContext<R extends AdminRecord = AdminRecord> extends PagedList<R> {
  /** The record being edited: its id, or 'new' for the form that creates one. */
  editing: string | null;
  /** The record a removal waits to be confirmed for. */
  target: R | null;
  problem: AdminProblem | null;
  /** The last change that went through, for the screen to announce. */
  done: AdminChange['kind'] | null;
  /** A change went through since the list was last asked for: it is read afresh. */
  stale: boolean;
}

export type AdminListEvent<R extends AdminRecord = AdminRecord> =
  | { type: 'LOAD' }
  | { type: 'RETRY' }
  | { type: 'LOAD_MORE' }
  | { type: 'EDIT'; id: string }
  | { type: 'SAVE'; change: Exclude<AdminChange, { kind: 'remove' }> }
  | { type: 'ASK_REMOVE'; record: R }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  /** Logged out: the next user sees nothing of this organization's records. */
  | { type: 'RESET' };

const forgotten = {
  ...emptyList,
  editing: null,
  target: null,
  problem: null,
  done: null,
  stale: false,
} satisfies AdminListContext;

/**
 * One list of the admin area (bots, categories, providers, groups, the audit log): pages, and one change at
 * a time — create, edit, or remove after a confirmation — after which the list is read afresh. One
 * machine for every list, typed by its record `R`, so each screen reads its own records without a cast.
 */
export function createAdminListMachine<R extends AdminRecord = AdminRecord>() {
  return setup({
    types: {
      context: {} as AdminListContext<R>,
      events: {} as AdminListEvent<R>,
    },
    actors: {
      /** A page of the list; `cursor` '' is the first. */
      fetchPage: fromPromise<AdminPage<R>, { cursor: string }>(async () => {
        throw new Error('fetchPage is provided by the app');
      }),
      /** Creates, changes or removes one record on the server. */
      applyChange: fromPromise<unknown, { change: AdminChange }>(async () => {
        throw new Error('applyChange is provided by the app');
      }),
    },
    guards: {
      ...pagedListGuards,
      isStale: ({ context }) => context.stale,
    },
    actions: {
      /** Effect the app provides: what depends on the list hears of the change just made (`context.done`). */
      announceChange: () => {
        throw new Error('announceChange is provided by the app');
      },
      ...pagedListActions<AdminListContext<R>, AdminListEvent<R>, R>(),
      assignEditing: assign({
        editing: ({ event }) => {
          assertEvent(event, 'EDIT');
          return event.id;
        },
        problem: null,
        done: null,
      }),
      assignSaving: assign({
        editing: ({ event }) => {
          assertEvent(event, 'SAVE');
          return event.change.kind === 'update' ? event.change.id : 'new';
        },
        problem: null,
        done: null,
      }),
      assignTarget: assign({
        target: ({ event }) => {
          assertEvent(event, 'ASK_REMOVE');
          return event.record;
        },
        problem: null,
        done: null,
      }),
      assignProblem: assign((_, { error }: { error: unknown }) => ({ problem: problemOf(error) })),
      /** A saved record: created if the form was a new one, updated otherwise. */
      assignSaved: assign({
        editing: null,
        target: null,
        problem: null,
        done: ({ context }) => (context.editing === 'new' ? 'create' : 'update'),
        stale: true,
      }),
      assignRemoved: assign({ editing: null, target: null, problem: null, done: 'remove', stale: true }),
      clearChange: assign({ editing: null, target: null, problem: null }),
      markFresh: assign({ stale: false }),
      forgetAll: assign(forgotten),
    },
  }).createMachine({
    id: 'adminList',
    description: 'A list of the admin area: pages, and one change at a time, confirmed when it removes.',
    type: 'parallel',
    context: forgotten,
    on: {
      RESET: { target: ['.list.idle', '.change.idle'], actions: 'forgetAll' },
    },
    states: {
      list: {
        ...pagedListRegion('The records, first page first; read afresh once a change has gone through.', {
          // A screen shown again.
          event: 'LOAD',
          from: ['loaded', 'failed'],
        }),
        // Whatever the list was doing, a page fetched before the change may not show it.
        always: { guard: 'isStale', target: '.loading', reenter: true, actions: 'markFresh' },
      },
      change: {
        description: 'Creating, editing or removing one record.',
        initial: 'idle',
        states: {
          idle: {
            description: 'No change under way; a create form may be filled in.',
            on: {
              EDIT: {
                target: 'editing',
                actions: 'assignEditing',
              },
              SAVE: {
                target: 'saving',
                actions: 'assignSaving',
              },
              ASK_REMOVE: {
                target: 'confirming',
                actions: 'assignTarget',
              },
            },
          },
          editing: {
            description: 'A record (or a new one) is in its form, with what the server said about it.',
            on: {
              EDIT: {
                target: 'editing',
                actions: 'assignEditing',
              },
              SAVE: {
                target: 'saving',
                actions: 'assignSaving',
              },
              CANCEL: { target: 'idle', actions: 'clearChange' },
            },
          },
          saving: {
            description: 'Sends the new or changed record; the server checks it.',
            invoke: {
              id: 'saveChange',
              src: 'applyChange',
              input: ({ event }) => {
                assertEvent(event, 'SAVE');
                return { change: event.change };
              },
              onDone: {
                target: 'idle',
                actions: ['assignSaved', 'announceChange'],
              },
              onError: { target: 'editing', actions: { type: 'assignProblem', params: errorParams } },
            },
          },
          confirming: {
            description: 'The dialog asks to confirm the removal.',
            on: {
              CONFIRM: 'removing',
              CANCEL: { target: 'idle', actions: 'clearChange' },
            },
          },
          removing: {
            description: 'Removes the record on the server (a bot is retired, never deleted).',
            invoke: {
              id: 'removeRecord',
              src: 'applyChange',
              input: ({ context }) => ({ change: { kind: 'remove', id: context.target?._id ?? '' } }),
              onDone: {
                target: 'idle',
                actions: ['assignRemoved', 'announceChange'],
              },
              onError: { target: 'confirming', actions: { type: 'assignProblem', params: errorParams } },
            },
          },
        },
      },
    },
  });
}

/** A list of any records: its diagram, and the paths its model tests walk. */
export const adminListMachine = createAdminListMachine();
