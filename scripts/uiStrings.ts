import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every literal UI string of the web app: `t('…')`, `<T>…</T>`, and the labels passed to fields and titles. */
export function uiStrings(root = 'src'): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bt\(\s*'((?:[^'\\]|\\.)+)'\s*\)/g,
    /<T>([^<{]+)<\/T>/g,
    /\b(?:label|hint|title|message)="([^"]+)"/g,
    /^\s+(?:\w+): '([A-Z][^']+[.?!…]?)',$/gm,
  ];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) {
        const source = readFileSync(path, 'utf8');
        for (const pattern of patterns)
          for (const match of source.matchAll(pattern)) found.add(match[1].trim().replace(/\\'/g, "'"));
      }
    }
  };
  walk(root);
  return [...found].filter((text) => /\p{L}/u.test(text)).sort();
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(uiStrings(), null, 1));
