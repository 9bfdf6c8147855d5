import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { catalogsFolder as folder } from '../paths';

/** The built-in translations of the UI's own strings: language code → English text → translation. */
export function loadCatalogs(): Map<string, Record<string, string>> {
  const catalogs = new Map<string, Record<string, string>>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    catalogs.set(basename(file, '.json'), JSON.parse(readFileSync(join(folder, file), 'utf8')));
  }
  return catalogs;
}
