import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';
import {
  emptySearchedList,
  type Page,
  type SearchedList,
  searchDelays,
  searchedListActions,
  searchedListGuards,
  searchedListRegion,
} from './pagedList';

/** Where a search found its words: a passage of plain text and the [start, end) ranges to mark in it. */
export interface SearchSnippet {
  text: string;
  highlights: [number, number][];
}

/** One of the user's conversations, as the sidebar lists it. */
export interface ConversationSummary {
  _id: string;
  title: string;
  bot: { _id: string; name: string };
  /** The last message as plain text (markdown stripped); null while the conversation has none. */
  preview: string | null;
  /** A reply is being written in it right now. */
  streaming: boolean;
  createdAt: string;
  updatedAt: string;
  /** Search results only: the best matching passage. */
  snippet?: SearchSnippet;
  /** The project it belongs to, if any (one the member may read). */
  project?: string | null;
  /** Pinned ones lead the list. */
  pinned?: boolean;
  /** Archived ones leave the list; searches still find them. */
  archived?: boolean;
}

/** A page of conversations; `next` continues the list, null at its end. */
export type ConversationPage = Page<ConversationSummary>;

/** A conversation named by its id and title: the one on screen, or the one a dialog is about. */
export interface ConversationRef {
  _id: string;
  title: string;
}

/** Which conversations the sidebar lists: one project's (else all), the archived ones or the others. */
export interface ConversationFilter {
  project: string | null;
  archived: boolean;
}

/** A change of one conversation a row's menu makes. */
export type ConversationChange = { pinned: boolean } | { archived: boolean };

export interface ConversationsContext extends SearchedList<ConversationSummary> {
  filter: ConversationFilter;
  /** The conversation the chat shows now, if any. */
  open: ConversationRef | null;
  /** The conversation being renamed, deleted, moved, pinned or archived. */
  target: ConversationRef | null;
  editError: string | null;
  /** Why the last pin or archive failed. */
  changeError: string | null;
  exportError: string | null;
}

export type ConversationsEvent =
  | { type: 'LOAD' }
  /** Something changed a conversation elsewhere (a message stored, a reply ended): list it afresh. */
  | { type: 'REFRESH' }
  | { type: 'LOAD_MORE' }
  | { type: 'RETRY' }
  | { type: 'SEARCH'; query: string }
  | { type: 'FILTER'; filter: ConversationFilter }
  | { type: 'SHOW'; conversation: ConversationRef | null }
  | { type: 'START_RENAME'; conversation: ConversationRef }
  | { type: 'RENAME'; title: string }
  | { type: 'ASK_DELETE'; conversation: ConversationRef }
  | { type: 'DELETE' }
  | { type: 'CANCEL' }
  /** Opens the dialog that moves a conversation into a project or out of its own. */
  | { type: 'START_MOVE'; conversation: ConversationRef }
  | { type: 'MOVE'; project: string | null }
  | { type: 'CHANGE'; conversation: ConversationRef; change: ConversationChange }
  | { type: 'EXPORT'; conversation: ConversationRef }
  | { type: 'OPEN_DRAWER' }
  | { type: 'CLOSE_DRAWER' }
  | { type: 'RESET' };

/**
 * Older clients created a conversation on opening a bot; one without a single message is nobody's
 * conversation, so it is not listed.
 */
const withMessages = (items: ConversationSummary[]) => items.filter((item) => item.preview !== null);

/** Whether a conversation with these fields is one the filter lists (a search lists any). */
const listedBy = (filter: ConversationFilter, item: ConversationSummary) =>
  (filter.project === null || item.project === filter.project) && !!item.archived === filter.archived;

/** The list region, which a FILTER (a project opened, the archived ones shown) reads afresh. */
const filtered = <Region extends { on: object }>(region: Region) => ({
  ...region,
  on: { ...region.on, FILTER: { target: '.loading', actions: 'assignFilter' } as const },
});

const allConversations: ConversationFilter = { project: null, archived: false };

const forgotten = {
  ...emptySearchedList,
  filter: allConversations,
  open: null,
  target: null,
  editError: null,
  changeError: null,
  exportError: null,
} satisfies ConversationsContext;

export const conversationsMachine = setup({
  types: {
    context: {} as ConversationsContext,
    events: {} as ConversationsEvent,
  },
  actors: {
    /** One page of the user's conversations, or of those matching `query`; stopping it cancels the request. */
    fetchPage: fromPromise<ConversationPage, { query: string; cursor: string; filter: ConversationFilter }>(
      async () => {
        throw new Error('fetchPage is provided by the app');
      },
    ),
    /** Renames a conversation; answers the title as the server stored it. */
    renameConversation: fromPromise<string, { id: string; title: string }>(async () => {
      throw new Error('renameConversation is provided by the app');
    }),
    /** Moves it into a project or out of one, pins or archives it (PATCH); answers it as stored. */
    changeConversation: fromPromise<
      ConversationSummary,
      { id: string; change: ConversationChange | { project: string | null } }
    >(async () => {
      throw new Error('changeConversation is provided by the app');
    }),
    deleteConversation: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('deleteConversation is provided by the app');
    }),
    /** Downloads the conversation as a Markdown file. */
    exportConversation: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('exportConversation is provided by the app');
    }),
  },
  delays: searchDelays,
  guards: {
    ...searchedListGuards,
    hasTitle: ({ event }) => event.type === 'RENAME' && event.title.trim() !== '',
    targetIsOpen: ({ context }) => !!context.target && context.target._id === context.open?._id,
  },
  actions: {
    /** Effects the app provides: the chat of a deleted conversation is left for the home area… */
    leaveConversation: () => {
      throw new Error('leaveConversation is provided by the app');
    },
    /** …and the drawer never shares the small screen with the side panel. */
    closeSidePanel: () => {
      throw new Error('closeSidePanel is provided by the app');
    },
    ...searchedListActions<ConversationsContext, ConversationsEvent, ConversationSummary>(withMessages),
    assignOpen: assign({
      open: ({ event }) => {
        assertEvent(event, 'SHOW');
        return event.conversation;
      },
    }),
    assignFilter: assign({
      filter: ({ event }) => {
        assertEvent(event, 'FILTER');
        return event.filter;
      },
      items: [],
      next: null,
    }),
    assignTarget: assign({
      target: ({ event }) => {
        assertEvent(event, ['START_RENAME', 'ASK_DELETE', 'START_MOVE']);
        return event.conversation;
      },
      editError: null,
    }),
    clearTarget: assign({ target: null, editError: null }),
    applyRename: assign(({ context }, { title }: { title: string }) => {
      const id = context.target?._id;
      return {
        items: context.items.map((item) => (item._id === id ? { ...item, title } : item)),
        open: context.open && context.open._id === id ? { ...context.open, title } : context.open,
        target: null,
        editError: null,
      };
    }),
    /**
     * The conversation as stored: where the list still holds it (a search holds any), in its place;
     * else out of the list (archived, or moved out of the project shown).
     */
    applyChange: assign(({ context }, { conversation }: { conversation: ConversationSummary }) => ({
      items:
        context.shownQuery || listedBy(context.filter, conversation)
          ? context.items.map((item) => (item._id === conversation._id ? { ...item, ...conversation } : item))
          : context.items.filter((item) => item._id !== conversation._id),
    })),
    removeTarget: assign(({ context }) => ({
      items: context.items.filter((item) => item._id !== context.target?._id),
      target: null,
      editError: null,
    })),
    assignEditError: assign((_, { error }: { error: unknown }) => ({ editError: messageOf(error) })),
    assignChangeError: assign((_, { error }: { error: unknown }) => ({ changeError: messageOf(error) })),
    clearChangeError: assign({ changeError: null }),
    assignExportError: assign((_, { error }: { error: unknown }) => ({ exportError: messageOf(error) })),
    clearExportError: assign({ exportError: null }),
    forgetAll: assign(forgotten),
  },
}).createMachine({
  id: 'conversations',
  description:
    "The user's conversations in the sidebar: pages, search, rename, delete, export, and the drawer on phones.",
  type: 'parallel',
  context: forgotten,
  on: {
    SHOW: {
      actions: 'assignOpen',
    },
    // Logged out: the next user sees nothing of this one's conversations.
    RESET: {
      target: ['.list.idle', '.edit.idle', '.arrange.idle', '.export.idle', '.drawer.closed'],
      actions: 'forgetAll',
    },
  },
  states: {
    list: filtered(
      searchedListRegion(
        'The conversations listed: pinned first, then newest; best match first while searching.',
        {
          // Something changed a conversation elsewhere (a message stored, a reply ended): whatever the
          // list was doing, it is read afresh.
          event: 'REFRESH',
          from: ['loading', 'loaded', 'loadingMore', 'failed'],
        },
        (context: ConversationsContext) => ({ filter: context.filter }),
      ),
    ),
    edit: {
      description: 'Renaming or deleting one conversation, each in its own dialog.',
      initial: 'idle',
      states: {
        idle: {
          description: 'No dialog open.',
          on: {
            START_RENAME: {
              target: 'renaming',
              actions: 'assignTarget',
            },
            ASK_DELETE: {
              target: 'confirmingDelete',
              actions: 'assignTarget',
            },
          },
        },
        renaming: {
          description: 'The rename dialog asks for the new title.',
          on: {
            RENAME: { guard: 'hasTitle', target: 'savingTitle' },
            CANCEL: { target: 'idle', actions: 'clearTarget' },
          },
        },
        savingTitle: {
          description: 'Stores the new title (PATCH: a 401 goes to welcome).',
          invoke: {
            id: 'renameConversation',
            src: 'renameConversation',
            input: ({ context, event }) => {
              assertEvent(event, 'RENAME');
              return { id: context.target?._id ?? '', title: event.title.trim() };
            },
            onDone: {
              target: 'idle',
              actions: { type: 'applyRename', params: ({ event }) => ({ title: event.output }) },
            },
            onError: { target: 'renaming', actions: { type: 'assignEditError', params: errorParams } },
          },
        },
        confirmingDelete: {
          description: 'The delete dialog asks to confirm.',
          on: {
            DELETE: 'deleting',
            CANCEL: { target: 'idle', actions: 'clearTarget' },
          },
        },
        deleting: {
          description: 'Deletes the conversation (DELETE: a 401 goes to welcome); its open chat is left.',
          invoke: {
            id: 'deleteConversation',
            src: 'deleteConversation',
            input: ({ context }) => ({ id: context.target?._id ?? '' }),
            onDone: [
              { guard: 'targetIsOpen', target: 'idle', actions: ['leaveConversation', 'removeTarget'] },
              { target: 'idle', actions: 'removeTarget' },
            ],
            onError: {
              target: 'confirmingDelete',
              actions: { type: 'assignEditError', params: errorParams },
            },
          },
        },
      },
    },
    arrange: {
      description: 'Moving a conversation to a project (in a dialog), pinning or archiving it.',
      initial: 'idle',
      states: {
        idle: {
          description: 'Nothing under way; a pin or an archive that failed says why.',
          on: {
            START_MOVE: { target: 'choosingProject', actions: 'assignTarget' },
            CHANGE: { target: 'changing', actions: 'clearChangeError' },
          },
        },
        choosingProject: {
          description: 'The move dialog lists the projects, and No project to move it out.',
          on: {
            MOVE: 'moving',
            CANCEL: { target: 'idle', actions: 'clearTarget' },
          },
        },
        moving: {
          description: 'Moves the conversation into the project chosen, or out of its own (PATCH).',
          invoke: {
            id: 'moveConversation',
            src: 'changeConversation',
            input: ({ context, event }) => {
              assertEvent(event, 'MOVE');
              return { id: context.target?._id ?? '', change: { project: event.project } };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'applyChange', params: ({ event }) => ({ conversation: event.output }) },
                'clearTarget',
              ],
            },
            onError: { target: 'choosingProject', actions: { type: 'assignEditError', params: errorParams } },
          },
        },
        changing: {
          description: 'Pins or unpins, archives or unarchives the conversation (PATCH).',
          invoke: {
            id: 'changeConversation',
            src: 'changeConversation',
            input: ({ event }) => {
              assertEvent(event, 'CHANGE');
              return { id: event.conversation._id, change: event.change };
            },
            onDone: {
              target: 'idle',
              actions: { type: 'applyChange', params: ({ event }) => ({ conversation: event.output }) },
            },
            onError: { target: 'idle', actions: { type: 'assignChangeError', params: errorParams } },
          },
        },
      },
    },
    export: {
      description: 'Downloading a conversation as Markdown.',
      initial: 'idle',
      states: {
        idle: {
          description: 'No download under way.',
          on: { EXPORT: 'exporting' },
        },
        exporting: {
          description: 'Fetches the Markdown file and hands it to the browser to save.',
          entry: 'clearExportError',
          invoke: {
            id: 'exportConversation',
            src: 'exportConversation',
            input: ({ event }) => {
              assertEvent(event, 'EXPORT');
              return { id: event.conversation._id };
            },
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'assignExportError', params: errorParams } },
          },
        },
      },
    },
    drawer: {
      description: 'On a phone the sidebar is a drawer over the page.',
      initial: 'closed',
      states: {
        closed: {
          description: 'Hidden behind the header button.',
          on: { OPEN_DRAWER: 'open' },
        },
        open: {
          description: 'Shown over the page; Escape, the scrim or choosing a conversation closes it.',
          entry: 'closeSidePanel',
          on: { CLOSE_DRAWER: 'closed' },
        },
      },
    },
  },
});
