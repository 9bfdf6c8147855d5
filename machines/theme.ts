import { setup } from 'xstate';

/** Light, dark, or whatever the system prefers (`prefers-color-scheme`). */
export type ThemeChoice = 'light' | 'dark' | 'system';
export const themeChoices: ThemeChoice[] = ['light', 'dark', 'system'];

export const themeMachine = setup({
  types: {
    input: {} as { stored: string | null },
    context: {} as { stored: string | null },
    events: {} as { type: 'CHOOSE'; choice: ThemeChoice },
  },
  guards: {
    isStored: ({ context }, params: { choice: ThemeChoice }) => context.stored === params.choice,
    isChosen: ({ event }, params: { choice: ThemeChoice }) => event.choice === params.choice,
  },
  actions: {
    /**
     * Effects the app provides: the choice kept in local storage, and applied to the page at once. A
     * small script applies the stored one before the first paint, so the page never flashes white.
     */
    storeChoice: (_, _params: { choice: ThemeChoice }) => {
      throw new Error('storeChoice is provided by the app');
    },
    applyChoice: (_, _params: { choice: ThemeChoice }) => {
      throw new Error('applyChoice is provided by the app');
    },
  },
}).createMachine({
  id: 'theme',
  description: 'The colour scheme: light, dark, or the system preference (the default).',
  context: ({ input }) => ({ stored: input.stored }),
  initial: 'deciding',
  on: {
    CHOOSE: [
      {
        guard: { type: 'isChosen', params: { choice: 'light' } },
        target: '.light',
        actions: [
          { type: 'storeChoice', params: { choice: 'light' } },
          { type: 'applyChoice', params: { choice: 'light' } },
        ],
      },
      {
        guard: { type: 'isChosen', params: { choice: 'dark' } },
        target: '.dark',
        actions: [
          { type: 'storeChoice', params: { choice: 'dark' } },
          { type: 'applyChoice', params: { choice: 'dark' } },
        ],
      },
      {
        target: '.system',
        actions: [
          { type: 'storeChoice', params: { choice: 'system' } },
          { type: 'applyChoice', params: { choice: 'system' } },
        ],
      },
    ],
  },
  states: {
    deciding: {
      description: 'Reads the stored choice; none, or one it does not know, means the system preference.',
      always: [
        { guard: { type: 'isStored', params: { choice: 'light' } }, target: 'light' },
        { guard: { type: 'isStored', params: { choice: 'dark' } }, target: 'dark' },
        { target: 'system' },
      ],
    },
    light: { description: 'Light, whatever the system prefers.' },
    dark: { description: 'Dark, whatever the system prefers.' },
    system: { description: 'Follows the system preference, and its changes.' },
  },
});
