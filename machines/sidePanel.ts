import { assertEvent, assign, type SnapshotFrom, setup } from 'xstate';

export type SidePanelView = 'profile' | 'bot' | 'botList' | 'notifications' | 'botFilter';

/** Seed-spec §9: 768 px wide or less counts as mobile. */
export const mobileBreakpoint = 768;
export const isMobileWidth = (width: number) => width <= mobileBreakpoint;

export interface SidePanelContext {
  /** The bot the bot view shows. */
  botId: string | null;
}

export type SidePanelEvent =
  | { type: 'TOGGLE' }
  | { type: 'SHOW_PROFILE' }
  /** Without a bot, the bot shown last. */
  | { type: 'SHOW_BOT'; botId?: string }
  | { type: 'SHOW_BOT_LIST' }
  | { type: 'SHOW_NOTIFICATIONS' }
  | { type: 'SHOW_BOT_FILTER' }
  | { type: 'CLOSE' }
  | { type: 'RESIZE'; width: number }
  | { type: 'TOGGLE_BALANCE' }
  | { type: 'TOGGLE_ORDER_INFO' }
  | { type: 'TOGGLE_CURRENCY_SELECT' };

/** The five views, and the event that shows each. */
export const showViewEvents = {
  profile: 'SHOW_PROFILE',
  bot: 'SHOW_BOT',
  botList: 'SHOW_BOT_LIST',
  notifications: 'SHOW_NOTIFICATIONS',
  botFilter: 'SHOW_BOT_FILTER',
} as const satisfies Record<SidePanelView, SidePanelEvent['type']>;

export const sidePanelMachine = setup({
  types: { context: {} as SidePanelContext, events: {} as SidePanelEvent },
  guards: {
    isMobile: ({ event }) => event.type === 'RESIZE' && isMobileWidth(event.width),
  },
  actions: {
    assignBot: assign({
      botId: ({ context, event }) => {
        assertEvent(event, 'SHOW_BOT');
        return event.botId ?? context.botId;
      },
    }),
  },
}).createMachine({
  id: 'sidePanel',
  description: 'The side panel: closed by default, five views, the last one remembered.',
  context: { botId: null },
  on: {
    SHOW_PROFILE: '.open.profile',
    SHOW_BOT: { target: '.open.bot', actions: 'assignBot' },
    SHOW_BOT_LIST: '.open.botList',
    SHOW_NOTIFICATIONS: '.open.notifications',
    SHOW_BOT_FILTER: '.open.botFilter',
  },
  initial: 'closed',
  states: {
    closed: {
      description: 'Hidden. Toggling opens the last view; showing a view opens that one.',
      on: {
        TOGGLE: 'open.last',
      },
    },
    open: {
      description: 'Shown, with one of five views; closing it resets what the profile view had unfolded.',
      initial: 'profile',
      on: {
        TOGGLE: 'closed',
        CLOSE: 'closed',
        RESIZE: { guard: 'isMobile', target: 'closed' },
      },
      states: {
        last: { description: 'Reopens the last chosen view.', type: 'history' },
        profile: {
          description: 'The user, the balance, order info and currency, logout.',
          type: 'parallel',
          states: {
            balance: {
              description: 'The balance, shown on demand.',
              initial: 'hidden',
              states: {
                hidden: { description: 'The balance is folded away.', on: { TOGGLE_BALANCE: 'shown' } },
                shown: { description: 'The balance is shown.', on: { TOGGLE_BALANCE: 'hidden' } },
              },
            },
            orderInfo: {
              description: 'The order history, shown on demand.',
              initial: 'hidden',
              states: {
                hidden: {
                  description: 'The order history is folded away.',
                  on: { TOGGLE_ORDER_INFO: 'shown' },
                },
                shown: { description: 'The order history is shown.', on: { TOGGLE_ORDER_INFO: 'hidden' } },
              },
            },
            currencySelect: {
              description: 'The billing currency picker, shown on demand.',
              initial: 'hidden',
              states: {
                hidden: {
                  description: 'The currency picker is folded away.',
                  on: { TOGGLE_CURRENCY_SELECT: 'shown' },
                },
                shown: {
                  description: 'The currency picker is shown.',
                  on: { TOGGLE_CURRENCY_SELECT: 'hidden' },
                },
              },
            },
          },
        },
        bot: { description: "The selected bot's details." },
        botList: { description: 'Quick switch between bots.' },
        notifications: { description: 'Notifications, marked read one by one.' },
        botFilter: { description: 'The category filter.' },
      },
    },
  },
});

type SidePanelSnapshot = SnapshotFrom<typeof sidePanelMachine>;

/** The view on show, or null while the panel is closed. */
export const shownViewOf = (snapshot: SidePanelSnapshot): SidePanelView | null =>
  (Object.keys(showViewEvents) as SidePanelView[]).find((view) => snapshot.matches({ open: view })) ?? null;

/** What the profile view has unfolded: nothing while another view is shown or the panel is closed. */
export const profileFlagsOf = (snapshot: SidePanelSnapshot) => ({
  balanceShown: snapshot.matches({ open: { profile: { balance: 'shown' } } }),
  orderInfoShown: snapshot.matches({ open: { profile: { orderInfo: 'shown' } } }),
  currencySelectShown: snapshot.matches({ open: { profile: { currencySelect: 'shown' } } }),
});
