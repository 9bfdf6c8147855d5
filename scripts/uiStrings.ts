import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Quoted words that are not shown as text: names, keys, log lines, languages shown in their own name. */
const notShown = new Set([
  'Deutsch',
  'English',
  'Español',
  'Français',
  'Italiano',
  'Nederlands',
  'Polski',
  'Português',
  'EncryptionError',
  // DOMException names the microphone's refusals carry.
  'NotAllowedError',
  'NotFoundError',
  'OverconstrainedError',
  'SecurityError',
  'HttpError',
  'Last-Event-ID',
  'TranslationCache',
  'Enter',
  'Escape',
  'Tab',
  // Keys, by the names keyboards print and `KeyboardEvent` gives them.
  'Alt',
  'ArrowDown',
  'ArrowUp',
  'Ctrl',
  'End',
  'Home',
  'Key',
  'Shift',
  'Slash',
  'Not logged in',
  'Organization check failed',
  'Parley could not start',
  'Request failed',
  'Service workers are not supported in this browser',
  'streamReply is provided by the app',
  'Translation cache or lookup failed',
  'Worker registration failed',
]);

/** Every literal UI string of the web app: `t('…')`, `<T>…</T>`, and the labels passed to fields and titles. */
export function uiStrings(): string[] {
  const found = new Set<string>();
  const screenPatterns = [
    /\bt\(\s*'((?:[^'\\]|\\.)+)'\s*\)/g,
    /<T>([^<{]+)<\/T>/g,
    // Quoted text that reads as words: a capital, then a lower-case letter or a space (not an SVG path).
    /'([A-Z][a-z ][^'\n]*)'/g,
    /"([A-Z][a-z ][^"\n]*)"/g,
  ];
  // Machines name their alert messages; their descriptions are for designers, not for the screen.
  const machinePatterns = [/message: '([^']+)'/g, /title: '([^']+)'/g];
  const walk = (folder: string, patterns: RegExp[]) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      // Developer tools (src/dev: the inspector) never reach a user's screen.
      if (path === join('src', 'dev')) continue;
      if (statSync(path).isDirectory()) walk(path, patterns);
      else if (/\.tsx?$/.test(name)) {
        const source = readFileSync(path, 'utf8');
        for (const pattern of patterns)
          for (const match of source.matchAll(pattern)) found.add(match[1].trim().replace(/\\'/g, "'"));
      }
    }
  };
  walk('src', screenPatterns);
  walk('machines', machinePatterns);
  return [...found].filter((text) => /\p{L}/u.test(text) && !notShown.has(text)).sort();
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(uiStrings(), null, 1));
