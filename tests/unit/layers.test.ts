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

  /** A server area: a folder of server/, or one of its top-level files. */
  const areaOf = (path: string) => path.split('/')[1].replace(/\.ts$/, '');
  const serverImports = sourcesUnder('server').flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith('server/'))
      .map((target) => ({ file, target, from: areaOf(file), to: areaOf(target) })),
  );

  it('the admin API is a leaf: nothing in the server imports server/admin/ but the app that registers it', () => {
    const leaning = serverImports
      .filter(
        ({ file, to }) => to === 'admin' && !file.startsWith('server/admin/') && file !== 'server/app.ts',
      )
      .map(({ file, target }) => `${file} → ${target}`);
    expect(leaning).toEqual([]);
  });

  it('no two server areas import each other', () => {
    const edges = new Set(
      serverImports.filter(({ from, to }) => from !== to).map(({ from, to }) => `${from} → ${to}`),
    );
    const both = [...edges].filter((edge) => {
      const [from, to] = edge.split(' → ');
      return from < to && edges.has(`${to} → ${from}`);
    });
    expect(both).toEqual([]);
  });
});

describe('routes', () => {
  // A routes file registers routes: app.get('/…'), app.post<…>('/…'), app.route({ … }).
  const registration = /\.(?:(?:get|post|put|patch|delete)\s*(?:<[^(]*>)?\(\s*['`]\/|route\s*\(\s*\{)/;
  const routeFiles = sourcesUnder('server').filter((file) => registration.test(readFileSync(file, 'utf8')));

  it('hold no SQL: their statements live in their area’s store', () => {
    // The codebase writes SQL in lower case; a UI sentence starts with a capital.
    const statement = /[`'"]\s*(select|insert\s+into|update\s+\w+\s+set|delete\s+from|with\s+\w+\s+as)\s/;
    const holding = routeFiles.filter((file) => statement.test(readFileSync(file, 'utf8')));
    expect(routeFiles.length).toBeGreaterThan(20);
    expect(holding).toEqual([]);
  });

  it('declare each route once: types come from the schemas, never a hand-written generic', () => {
    const generic = /\.(get|post|put|patch|delete|route)\s*<\s*\{/;
    expect(routeFiles.filter((file) => generic.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});
