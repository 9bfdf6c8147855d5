import { commandPaletteMachine, shownConversations } from '../../../machines/commandPalette';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const afterSearchDelay = 'xstate.after.searchDelay.commandPalette.palette.debouncing';
const conversation = (id: string) => ({
  _id: id,
  title: `Lighthouse ${id}`,
  bot: { _id: 'eliza', name: 'ELIZA' },
  preview: 'Hello',
  streaming: false,
  createdAt: '',
  updatedAt: '',
});
/** More than the palette shows: it keeps the first few. */
const many = Array.from({ length: shownConversations + 2 }, (_, index) => conversation(`c${index}`));

export const commandPaletteModel: MachineModel = {
  name: 'commandPalette',
  provide: (world) =>
    commandPaletteMachine.provide({
      actors: { searchConversations: recording(world, 'searchConversations') },
    }),
  inputs: [undefined],
  events: [
    { type: 'OPEN' },
    { type: 'SHOW_SHORTCUTS' },
    { type: 'TYPE', query: ' lighthouse ' },
    { type: 'TYPE', query: '  ' },
    { type: afterSearchDelay },
    done('searchConversations', many),
    done('searchConversations', []),
    failed('searchConversations'),
    { type: 'RETRY' },
    { type: 'CLOSE' },
  ],
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.query,
      snapshot.context.found.length,
      !!snapshot.context.error,
    ]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    // Each opening starts empty: leaving the palette forgets what was typed and found.
    if (!snapshot.matches('palette'))
      expect(context).toEqual({ query: '', found: [], searched: '', error: null });
    if (snapshot.matches({ palette: 'idle' })) {
      expect(context.query.trim()).toBe('');
      expect(context.found).toEqual([]);
    }
    // The search asks for the words without the spaces around them.
    if (snapshot.matches({ palette: 'searching' }))
      expect(lastCall(world, 'searchConversations')).toBe('searchConversations {"query":"lighthouse"}');
    if (event?.type === 'xstate.done.actor.searchConversations') {
      expect(snapshot.matches({ palette: 'found' })).toBe(true);
      expect(context.found).toEqual((event.output as unknown[]).slice(0, shownConversations));
      expect(context.searched).toBe('lighthouse');
    }
    if (snapshot.matches({ palette: 'failed' })) {
      expect(context.error).toBe('searchConversations failed');
      expect(context.found).toEqual([]);
    }
    if (event?.type === 'TYPE') expect(context.query).toBe(event.query);
  },
};
