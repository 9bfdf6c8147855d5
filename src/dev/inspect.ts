import { createBrowserInspector } from '@statelyai/inspect';

/** `npm run dev` with `?inspect`: every actor shows up live in the Stately inspector. Never bundled in production. */
export function createInspector() {
  return createBrowserInspector().inspect;
}
