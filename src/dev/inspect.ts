import { createBrowserInspector } from '@statelyai/inspect';
import { redactSecrets } from './redact';

/**
 * What every inspection event goes through before it leaves the page: a plain copy with its secrets
 * redacted (events and snapshots carry context, events and the machines' definitions).
 */
export const inspectorOptions = { serialize: redactSecrets };

/**
 * `npm run dev` with `?inspect`: every actor shows up live in the Stately inspector. Never bundled in
 * production. Not started: browsers block the inspector's pop-up without a click, so `open` is for a button;
 * events until then are kept (the newest 200).
 */
export function createInspector() {
  const inspector = createBrowserInspector({ ...inspectorOptions, autoStart: false });
  return { inspect: inspector.inspect, open: () => inspector.start() };
}

/** A button in the corner of the page that opens the inspector (the click lets its pop-up through), then goes. */
export function showOpenButton(open: () => void) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Open inspector';
  button.style.cssText = 'position:fixed;inset:auto 1rem 1rem auto;z-index:2147483647';
  button.addEventListener('click', () => {
    open();
    button.remove();
  });
  document.body.append(button);
}
