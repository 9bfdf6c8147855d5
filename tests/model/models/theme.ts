import { themeMachine } from '../../../machines/theme';
import { createStoredValues } from '../../../src/app/storedValues';
import { themeActions } from '../../../src/app/themeActions';
import type { MachineModel } from '../harness';
import { expect } from '../harness';

export const themeModel: MachineModel = {
  name: 'theme',
  provide: (world) =>
    themeMachine.provide({
      actions: themeActions(createStoredValues(world.storage), (choice) =>
        world.calls.push(`apply ${choice}`),
      ),
    }),
  inputs: [{ stored: null }, { stored: 'dark' }, { stored: 'light' }, { stored: 'sepia' }],
  events: [
    { type: 'CHOOSE', choice: 'light' },
    { type: 'CHOOSE', choice: 'dark' },
    { type: 'CHOOSE', choice: 'system' },
  ],
  check: (snapshot, world, event) => {
    const { stored } = snapshot.context;
    if (!event) expect(snapshot.value).toBe(stored === 'light' || stored === 'dark' ? stored : 'system');
    if (event) {
      // A choice is shown at once and kept for the next visit; "system" is no stored choice at all.
      const { choice } = event as unknown as { choice: string };
      expect(snapshot.value).toBe(choice);
      expect(world.calls.at(-1)).toBe(`apply ${choice}`);
      expect(world.storage.getItem('theme')).toBe(choice === 'system' ? null : choice);
    }
  },
};
