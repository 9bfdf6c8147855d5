import type { ThemeChoice } from '../../machines/theme';
import type { StoredValues } from './storedValues';

/**
 * The theme machine's effects: the choice kept under `theme` ("system" is the absence of one, as
 * public/theme.js reads it), and shown at once.
 */
export const themeActions = (stored: StoredValues, applyTheme: (choice: ThemeChoice) => void) => ({
  storeChoice: (_: unknown, { choice }: { choice: ThemeChoice }) =>
    choice === 'system' ? stored.theme.clear() : stored.theme.set(choice),
  applyChoice: (_: unknown, { choice }: { choice: ThemeChoice }) => applyTheme(choice),
});
