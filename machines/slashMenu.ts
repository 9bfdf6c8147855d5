import { and, assertEvent, assign, fromPromise, not, setup } from 'xstate';
import { errorParams, messageOf } from './errors';
import { fillPlaceholders, type Prompt, placeholdersOf, promptsMatching } from './promptText';

/** What follows a `/` at the start of the message box while it is one word; null otherwise. */
export const slashQuery = (text: string): string | null => (/^\/\S*$/.test(text) ? text.slice(1) : null);

export interface SlashMenuContext {
  prompts: Prompt[];
  /** What follows the `/`. */
  query: string;
  /** The highlighted option, an index into the matching prompts. */
  highlighted: number;
  /** The prompt whose placeholders are asked for. */
  picked: Prompt | null;
  /** The placeholders left empty when the values were last sent. */
  missing: string[];
  /** The text that goes in the message box, with a count that changes each time one does. */
  inserted: { text: string; count: number };
  error: string | null;
}

export type SlashMenuEvent =
  /** The message box's text, each time it changes. */
  | { type: 'TYPE'; text: string }
  | { type: 'DOWN' }
  | { type: 'UP' }
  /** Enter or Tab: the highlighted prompt. */
  | { type: 'PICK' }
  /** A click on an option. */
  | { type: 'CHOOSE'; id: string }
  /** Escape: the menu closes, the text stays. */
  | { type: 'CLOSE' }
  | { type: 'RETRY' }
  /** The placeholders' values, by name. */
  | { type: 'FILL'; values: Record<string, string> }
  | { type: 'CANCEL' };

/** The prompts that match what follows the `/`, in the order the menu lists them. */
export const matchesOf = (context: Pick<SlashMenuContext, 'prompts' | 'query'>) =>
  promptsMatching(context.prompts, context.query);

const textOf = (event: SlashMenuEvent) => {
  assertEvent(event, 'TYPE');
  return event.text;
};
const emptyOf = (values: Record<string, string>, prompt: Prompt | null) =>
  placeholdersOf(prompt?.text ?? '').filter((name) => !values[name]?.trim());
/** The prompt a PICK (the highlighted one) or a CHOOSE (the one clicked) names. */
const pickedOf = (context: SlashMenuContext, event: SlashMenuEvent) => {
  assertEvent(event, ['PICK', 'CHOOSE']);
  const matches = matchesOf(context);
  return (
    (event.type === 'CHOOSE'
      ? matches.find((item) => item._id === event.id)
      : matches[context.highlighted]) ?? null
  );
};
const valuesOf = (event: SlashMenuEvent) => {
  assertEvent(event, 'FILL');
  return event.values;
};

export const slashMenuMachine = setup({
  types: {
    context: {} as SlashMenuContext,
    events: {} as SlashMenuEvent,
  },
  actors: {
    /** The member's prompts and the organization's (GET /api/v1/prompt), each time the menu opens. */
    listPrompts: fromPromise<Prompt[]>(async () => {
      throw new Error('listPrompts is provided by the app');
    }),
  },
  guards: {
    isSlash: ({ event }) => slashQuery(textOf(event)) !== null,
    hasMatches: ({ context }) => matchesOf(context).length > 0,
    isMatch: ({ context, event }) => {
      assertEvent(event, 'CHOOSE');
      return matchesOf(context).some((prompt) => prompt._id === event.id);
    },
    /** The highlighted (or chosen) prompt has placeholders to ask for. */
    asksValues: ({ context, event }) => placeholdersOf(pickedOf(context, event)?.text ?? '').length > 0,
    isNotSlash: not('isSlash'),
    isMatchAsking: and(['isMatch', 'asksValues']),
    isFilled: ({ context, event }) => emptyOf(valuesOf(event), context.picked).length === 0,
  },
  actions: {
    assignQuery: assign({
      query: ({ event }) => slashQuery(textOf(event)) ?? '',
      highlighted: 0,
    }),
    assignPrompts: assign((_, { prompts }: { prompts: Prompt[] }) => ({ prompts, error: null })),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    clearError: assign({ error: null }),
    highlightNext: assign({
      highlighted: ({ context }) => (context.highlighted + 1) % matchesOf(context).length,
    }),
    highlightPrevious: assign({
      highlighted: ({ context }) => {
        const count = matchesOf(context).length;
        return (context.highlighted - 1 + count) % count;
      },
    }),
    assignPicked: assign({ picked: ({ context, event }) => pickedOf(context, event), missing: [] }),
    /** A prompt without placeholders goes in the box as it is. */
    insertPicked: assign({
      inserted: ({ context, event }) => ({
        text: pickedOf(context, event)?.text ?? '',
        count: context.inserted.count + 1,
      }),
    }),
    insertFilled: assign({
      inserted: ({ context, event }) => ({
        text: fillPlaceholders(context.picked?.text ?? '', valuesOf(event)),
        count: context.inserted.count + 1,
      }),
      picked: null,
      missing: [],
    }),
    assignMissing: assign({ missing: ({ context, event }) => emptyOf(valuesOf(event), context.picked) }),
    forgetPicked: assign({ picked: null, missing: [] }),
  },
}).createMachine({
  id: 'slashMenu',
  description:
    "The message box's / menu: the prompts that match what follows the /, picked by keys or a click; their placeholders asked for.",
  context: {
    prompts: [],
    query: '',
    highlighted: 0,
    picked: null,
    missing: [],
    inserted: { text: '', count: 0 },
    error: null,
  },
  initial: 'closed',
  states: {
    closed: {
      id: 'slashMenu.closed',
      description: 'No menu: the box does not start with /.',
      on: { TYPE: { guard: 'isSlash', target: 'loading', actions: 'assignQuery' } },
    },
    loading: {
      id: 'slashMenu.loading',
      description: 'The menu opens and asks for the prompts (those known meanwhile are listed).',
      tags: 'shown',
      invoke: {
        id: 'listPrompts',
        src: 'listPrompts',
        onDone: {
          target: 'open',
          actions: { type: 'assignPrompts', params: ({ event }) => ({ prompts: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
      },
      on: {
        TYPE: [{ guard: 'isSlash', actions: 'assignQuery' }, { target: 'closed' }],
        CLOSE: 'dismissed',
      },
    },
    failed: {
      id: 'slashMenu.failed',
      description: 'The prompts could not be loaded: the reason and Retry.',
      tags: 'shown',
      on: {
        RETRY: { target: 'loading', actions: 'clearError' },
        TYPE: [{ guard: 'isSlash', actions: 'assignQuery' }, { target: 'closed' }],
        CLOSE: 'dismissed',
      },
    },
    open: {
      id: 'slashMenu.open',
      description: 'The matching prompts, one highlighted: ↑/↓ move, Enter or Tab picks, Escape closes.',
      tags: 'shown',
      on: {
        TYPE: [{ guard: 'isSlash', actions: 'assignQuery' }, { target: 'closed' }],
        DOWN: { guard: 'hasMatches', actions: 'highlightNext' },
        UP: { guard: 'hasMatches', actions: 'highlightPrevious' },
        PICK: [
          { guard: 'asksValues', target: 'asking', actions: 'assignPicked' },
          { guard: 'hasMatches', target: 'dismissed', actions: 'insertPicked' },
        ],
        CHOOSE: [
          { guard: 'isMatchAsking', target: 'asking', actions: 'assignPicked' },
          { guard: 'isMatch', target: 'dismissed', actions: 'insertPicked' },
        ],
        CLOSE: 'dismissed',
      },
    },
    asking: {
      id: 'slashMenu.asking',
      description: 'A dialog asks a value for each placeholder, each required, before the text lands.',
      on: {
        FILL: [
          { guard: 'isFilled', target: 'dismissed', actions: 'insertFilled' },
          { actions: 'assignMissing' },
        ],
        CANCEL: { target: 'open', actions: 'forgetPicked' },
      },
    },
    dismissed: {
      id: 'slashMenu.dismissed',
      description:
        'Closed with the / still there (Escape, or a prompt put in the box) until the text changes.',
      on: { TYPE: { guard: 'isNotSlash', target: 'closed' } },
    },
  },
});
