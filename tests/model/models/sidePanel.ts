import {
  profileFlagsOf,
  type SidePanelView,
  shownViewOf,
  showViewEvents,
  sidePanelMachine,
} from '../../../machines/sidePanel';
import type { MachineModel } from '../harness';
import { expect } from '../harness';

export const sidePanelModel: MachineModel = {
  name: 'sidePanel',
  provide: () => sidePanelMachine,
  inputs: [undefined],
  events: [
    { type: 'TOGGLE' },
    { type: 'CLOSE' },
    { type: 'SHOW_PROFILE' },
    { type: 'SHOW_BOT', botId: 'b1' },
    { type: 'SHOW_BOT' },
    { type: 'SHOW_BOT_LIST' },
    { type: 'SHOW_NOTIFICATIONS' },
    { type: 'SHOW_BOT_FILTER' },
    { type: 'RESIZE', width: 768 },
    { type: 'RESIZE', width: 1280 },
    { type: 'TOGGLE_BALANCE' },
    { type: 'TOGGLE_ORDER_INFO' },
    { type: 'TOGGLE_CURRENCY_SELECT' },
  ],
  check: (snapshot, world, event) => {
    const viewOf = (type: string) =>
      (Object.keys(showViewEvents) as SidePanelView[]).find((view) => showViewEvents[view] === type);
    const flagsOff = { balanceShown: false, orderInfoShown: false, currencySelectShown: false };
    // Nothing is unfolded while the panel is closed, nor when it opens again.
    if (snapshot.matches('closed') || event?.type === 'TOGGLE')
      expect(profileFlagsOf(snapshot)).toEqual(flagsOff);
    if (event?.type === 'RESIZE' && (event as unknown as { width: number }).width <= 768)
      expect(snapshot.matches('closed')).toBe(true);
    if (event && viewOf(event.type)) expect(shownViewOf(snapshot)).toBe(viewOf(event.type));
    // Opening it again shows the last chosen view (profile before any).
    if (event?.type === 'TOGGLE' && snapshot.matches('open')) {
      const chosen = world.sent.filter((sent) => viewOf(sent.type)).at(-1);
      expect(shownViewOf(snapshot)).toBe(chosen ? viewOf(chosen.type) : 'profile');
    }
    // The bot view shows the bot last asked for.
    const botChosen = world.sent.some((sent) => sent.type === 'SHOW_BOT' && sent.botId);
    expect(snapshot.context.botId).toBe(botChosen ? 'b1' : null);
  },
};
