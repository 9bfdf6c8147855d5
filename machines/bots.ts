import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

export interface BotCategory {
  _id: string;
  name: string;
}
export interface BotRecord {
  _id: string;
  name: string;
  description: string;
  active: boolean;
  categories: BotCategory[];
  platform: { name: string };
  /** Price of one reply, in the organization's currency. */
  price: number;
  /** Who made it, for a member's own bot. */
  owner?: { _id: string; name: string };
  /** A member's bot's starter prompts, offered in a new conversation. */
  starters?: string[];
  /** The catalogue models it offers, its default first (none: it runs on its own). */
  models?: { _id: string; name: string }[];
  /** Members may set a conversation's temperature and reply length. */
  userParameters?: boolean;
  /** `web_search` is among its tools: it searches the web without being asked. */
  webSearch?: boolean;
}

/** Active bots are those with active true (seed-spec §4). */
export function activeBots<B extends BotRecord>(bots: B[]): B[] {
  return bots.filter((bot) => bot.active);
}

/** The category filter narrows the active bots; no filter means all of them (seed-spec §4). */
export function filterBots<B extends BotRecord>(bots: B[], categoryIds: string[]): B[] {
  const active = activeBots(bots);
  if (categoryIds.length === 0) return active;
  return active.filter((bot) => bot.categories.some((category) => categoryIds.includes(category._id)));
}

/** Bots grouped by platform name, platforms in order of first appearance (seed-spec §1). */
export function groupByPlatform<B extends BotRecord>(bots: B[]): { platform: string; bots: B[] }[] {
  const groups = new Map<string, B[]>();
  for (const bot of bots) groups.set(bot.platform.name, [...(groups.get(bot.platform.name) ?? []), bot]);
  return [...groups].map(([platform, members]) => ({ platform, bots: members }));
}

export const botsMachine = setup({
  types: {
    context: {} as { bots: BotRecord[]; categoryIds: string[]; error: string | null },
    events: {} as
      | { type: 'LOAD' }
      | { type: 'RETRY' }
      | { type: 'RELOAD' }
      | { type: 'FILTER'; categoryIds: string[] },
  },
  actors: {
    fetchBots: fromPromise<BotRecord[]>(async () => {
      throw new Error('fetchBots is provided by the app');
    }),
  },
  actions: {
    assignBots: assign((_, { bots }: { bots: BotRecord[] }) => ({ bots, error: null })),
    assignError: assign((_, { error }: { error: unknown }) => ({
      error: messageOf(error, 'Could not load the bots'),
    })),
    assignFilter: assign({
      categoryIds: ({ event }) => {
        assertEvent(event, 'FILTER');
        return event.categoryIds;
      },
    }),
  },
}).createMachine({
  id: 'bots',
  description: 'The bot catalogue: loaded once and reused, filtered by category.',
  context: { bots: [], categoryIds: [], error: null },
  initial: 'idle',
  on: {
    FILTER: {
      actions: 'assignFilter',
    },
  },
  states: {
    idle: {
      description: 'Nothing loaded yet.',
      on: { LOAD: 'loading' },
    },
    loading: {
      description: 'Fetches the bot list.',
      invoke: {
        id: 'fetchBots',
        src: 'fetchBots',
        onDone: {
          target: 'loaded',
          actions: { type: 'assignBots', params: ({ event }) => ({ bots: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
      },
    },
    loaded: {
      description:
        "The list is here and is reused: LOAD does nothing; RELOAD (the member's own bots changed) fetches it afresh.",
      on: { RELOAD: 'loading' },
    },
    failed: {
      description: 'The list could not be loaded; the user can retry.',
      on: { RETRY: 'loading', LOAD: 'loading' },
    },
  },
});
