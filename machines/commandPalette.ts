import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ConversationSummary } from './conversations';
import { errorParams, messageOf } from './errors';
import { searchDelays } from './pagedList';

/** The palette lists this many conversations at most: the best matches, the rest is the sidebar's search. */
export const shownConversations = 8;

export interface CommandPaletteContext {
  /** What the palette's box holds. */
  query: string;
  /** The conversations the server found for `searched`. */
  found: ConversationSummary[];
  /** The words the conversations found answer; '' before any search. */
  searched: string;
  /** Why the last conversation search failed. */
  error: string | null;
}

export type CommandPaletteEvent =
  /** Ctrl+K / ⌘K. */
  | { type: 'OPEN' }
  /** `?` or Ctrl+/, or the palette's "Keyboard shortcuts". */
  | { type: 'SHOW_SHORTCUTS' }
  | { type: 'TYPE'; query: string }
  | { type: 'RETRY' }
  /** Escape, or an option chosen (its effect is the screen's). */
  | { type: 'CLOSE' };

const cleared = { query: '', found: [], searched: '', error: null } satisfies CommandPaletteContext;

const typed = ({ event }: { event: CommandPaletteEvent }) => {
  assertEvent(event, 'TYPE');
  return { query: event.query };
};

export const commandPaletteMachine = setup({
  types: {
    context: {} as CommandPaletteContext,
    events: {} as CommandPaletteEvent,
  },
  actors: {
    /** The conversations matching the words (GET /api/v1/topic?q=, the sidebar's search); aborted when stale. */
    searchConversations: fromPromise<ConversationSummary[], { query: string }>(async () => {
      throw new Error('searchConversations is provided by the app');
    }),
  },
  delays: searchDelays,
  guards: {
    /** Only spaces: nothing to ask the server. */
    isBlank: (_, { query }: { query: string }) => query.trim() === '',
  },
  actions: {
    clearSearch: assign(cleared),
    assignQuery: assign((_, { query }: { query: string }) => ({ query, error: null })),
    /** An emptied box lists no conversations: they are found by words only. */
    forgetFound: assign({ found: [], searched: '', error: null }),
    assignFound: assign(({ context }, { found }: { found: ConversationSummary[] }) => ({
      found: found.slice(0, shownConversations),
      searched: context.query.trim(),
      error: null,
    })),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error), found: [] })),
  },
}).createMachine({
  id: 'commandPalette',
  description:
    'The command palette (Ctrl+K): conversations found by the server, bots, projects, prompts and actions; and the Keyboard shortcuts dialog.',
  context: cleared,
  initial: 'closed',
  states: {
    closed: {
      id: 'commandPalette.closed',
      description: 'Neither dialog is open; the keys open them.',
      on: {
        OPEN: 'palette',
        SHOW_SHORTCUTS: 'shortcuts',
      },
    },
    shortcuts: {
      id: 'commandPalette.shortcuts',
      description: 'The Keyboard shortcuts dialog lists every key and what it does.',
      on: {
        CLOSE: 'closed',
        OPEN: 'palette',
      },
    },
    palette: {
      id: 'commandPalette.palette',
      description: 'The palette: a box, and the options that match it, by group.',
      initial: 'idle',
      // Leaving it forgets the search: the palette opens empty each time.
      on: {
        CLOSE: { target: 'closed', actions: 'clearSearch' },
        SHOW_SHORTCUTS: { target: 'shortcuts', actions: 'clearSearch' },
        TYPE: [
          {
            guard: { type: 'isBlank', params: typed },
            target: '.idle',
            actions: [{ type: 'assignQuery', params: typed }, 'forgetFound'],
          },
          // Re-entered: typing on stops the search under way (its request is aborted) and waits again.
          { target: '.debouncing', reenter: true, actions: { type: 'assignQuery', params: typed } },
        ],
      },
      states: {
        idle: {
          id: 'commandPalette.palette.idle',
          description: 'Nothing typed: actions, bots, projects and prompts; no conversation is searched.',
        },
        debouncing: {
          id: 'commandPalette.palette.debouncing',
          description: 'Words are being typed; the conversation search goes out once the typing pauses.',
          after: { searchDelay: 'searching' },
        },
        searching: {
          id: 'commandPalette.palette.searching',
          description:
            'Asks the server for the conversations with these words; the rest is listed meanwhile.',
          invoke: {
            id: 'searchConversations',
            src: 'searchConversations',
            input: ({ context }) => ({ query: context.query.trim() }),
            onDone: {
              target: 'found',
              actions: { type: 'assignFound', params: ({ event }) => ({ found: event.output }) },
            },
            onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
          },
        },
        found: {
          id: 'commandPalette.palette.found',
          description: 'The conversations found (maybe none) are listed with the other matches.',
        },
        failed: {
          id: 'commandPalette.palette.failed',
          description:
            'The conversation search failed: it says so, with Retry; the other matches are listed.',
          on: { RETRY: 'searching' },
        },
      },
    },
  },
});
