import { lazyModule } from './lazyModule';

// Their own chunks, fetched on the first code block or formula: never part of the landing or home pages.
export const highlighterModule = lazyModule(() => import('./highlighter'));
export const mathModule = lazyModule(() => import('./math'));

/** Both lazy renderers, loaded: tests await it; the app may call it when idle. */
export function preloadMarkdownExtras(): Promise<unknown> {
  return Promise.all([highlighterModule.load(), mathModule.load()]);
}
