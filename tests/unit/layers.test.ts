import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The screens reach the network only through the machines and the composition root (src/app): a
// screen that imported a call, or even a wire type, would let a second vocabulary of records in.
const screenFolders = [
  'src/screens',
  'src/components',
  'src/home',
  'src/chat',
  'src/forms',
  'src/admin',
  'src/workspace',
];

const sourcesUnder = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });

/** Every module a file imports, statically, by type or dynamically, resolved from the repository root. */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)'([^']+)'/gm)]
    .map((match) => match[1])
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(process.cwd(), resolve(dirname(file), specifier)));

describe('layers', () => {
  it('screens import nothing from src/api, not even types', () => {
    const reaching = screenFolders.flatMap(sourcesUnder).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === 'src/api' || target.startsWith('src/api/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(reaching).toEqual([]);
  });
});
