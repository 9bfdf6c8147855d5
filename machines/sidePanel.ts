import { assign, setup } from 'xstate';

export type SidePanelView = 'profile' | 'bot' | 'botList' | 'notifications' | 'botFilter';

/** Seed-spec §9: 768 px wide or less counts as mobile. */
export const mobileBreakpoint = 768;
export const isMobileWidth = (width: number) => width <= mobileBreakpoint;

export interface SidePanelContext {
  /** The bot the bot view shows. */
  botId: string | null;
  balanceShown: boolean;
  orderInfoShown: boolean;
  currencySelectShown: boolean;
}

export type SidePanelEvent =
  | { type: 'TOGGLE' }
  | { type: 'CHANGE_VIEW'; view: SidePanelView; botId?: string }
  | { type: 'CLOSE' }
  | { type: 'RESIZE'; width: number }
  | { type: 'TOGGLE_BALANCE' }
  | { type: 'TOGGLE_ORDER_INFO' }
  | { type: 'TOGGLE_CURRENCY_SELECT' };

const flagsOff = { balanceShown: false, orderInfoShown: false, currencySelectShown: false };

export const sidePanelMachine = setup({
  types: { context: {} as SidePanelContext, events: {} as SidePanelEvent },
  guards: {
    isMobile: ({ event }) => event.type === 'RESIZE' && isMobileWidth(event.width),
    isView: ({ event }, params: { view: SidePanelView }) =>
      event.type === 'CHANGE_VIEW' && event.view === params.view,
  },
  actions: {
    assignBot: assign({
      botId: ({ context, event }) => (event.type === 'CHANGE_VIEW' && event.botId) || context.botId,
    }),
    resetFlags: assign(flagsOff),
    toggleBalance: assign({ balanceShown: ({ context }) => !context.balanceShown }),
    toggleOrderInfo: assign({ orderInfoShown: ({ context }) => !context.orderInfoShown }),
    toggleCurrencySelect: assign({ currencySelectShown: ({ context }) => !context.currencySelectShown }),
  },
}).createMachine({
  id: 'sidePanel',
  description: 'The side panel: closed by default, five views, the last one remembered.',
  context: { botId: null, ...flagsOff },
  on: {
    CHANGE_VIEW: [
      { guard: { type: 'isView', params: { view: 'bot' } }, target: '.open.bot', actions: 'assignBot' },
      { guard: { type: 'isView', params: { view: 'botList' } }, target: '.open.botList' },
      { guard: { type: 'isView', params: { view: 'notifications' } }, target: '.open.notifications' },
      { guard: { type: 'isView', params: { view: 'botFilter' } }, target: '.open.botFilter' },
      { target: '.open.profile' },
    ],
  },
  initial: 'closed',
  states: {
    closed: {
      description: 'Hidden. Toggling opens the last view; changing the view opens that one.',
      on: {
        TOGGLE: 'open.last',
      },
    },
    open: {
      description: 'Shown, with one of five views.',
      initial: 'profile',
      on: {
        TOGGLE: { target: 'closed', actions: 'resetFlags' },
        CLOSE: { target: 'closed', actions: 'resetFlags' },
        RESIZE: { guard: 'isMobile', target: 'closed', actions: 'resetFlags' },
      },
      states: {
        last: { description: 'Reopens the last chosen view.', type: 'history' },
        profile: {
          description: 'The user, the balance, order info and currency, logout.',
          on: {
            TOGGLE_BALANCE: { actions: 'toggleBalance' },
            TOGGLE_ORDER_INFO: { actions: 'toggleOrderInfo' },
            TOGGLE_CURRENCY_SELECT: { actions: 'toggleCurrencySelect' },
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
