import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface Size {
  raw: number;
  gzip: number;
}

const dist = 'dist';

function sizeOf(path: string): Size {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

function add(a: Size, b: Size): Size {
  return { raw: a.raw + b.raw, gzip: a.gzip + b.gzip };
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function readManifest(): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
}

/** The chunk files a manifest key loads before first paint: itself and its static imports, transitively. */
export function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

function sumFiles(files: Iterable<string>): Size {
  let total: Size = { raw: 0, gzip: 0 };
  for (const file of files) total = add(total, sizeOf(join(dist, file)));
  return total;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

/**
 * Initial JS of the entry (landing), each route's lazily loaded chunks (those matching its patterns,
 * with their static imports) on top, and the whole build.
 */
export function bundleFigures(lazyRoutes: Record<string, RegExp[]> = {}) {
  const manifest = readManifest();
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
  const initialKeys = staticClosure(manifest, entryKey);
  const initial = sumFiles([...initialKeys].map((key) => manifest[key].file));
  const routes: Record<string, Size> = {};
  for (const [name, patterns] of Object.entries(lazyRoutes)) {
    const keys = new Set(initialKeys);
    for (const pattern of patterns) {
      const lazyKey = Object.keys(manifest).find((key) => pattern.test(key));
      if (lazyKey) staticClosure(manifest, lazyKey, keys);
    }
    routes[name] = sumFiles([...keys].map((key) => manifest[key].file));
  }
  const files = allFiles(dist).filter((path) => !path.includes('.vite'));
  const js = sumFiles(files.filter((path) => path.endsWith('.js')).map((path) => relative(dist, path)));
  const whole = sumFiles(files.map((path) => relative(dist, path)));
  return { initial, routes, js, whole, fileCount: files.length };
}

export function printBundleFigures(): void {
  // Every logged-in route loads the workspace shell and its actors too.
  const workspace = [/src\/workspace\/Workspace/, /src\/app\/createWorkspaceActors/];
  const figures = bundleFigures({
    home: [...workspace, /src\/home\/HomeArea/],
    chat: [...workspace, /src\/chat\/ChatArea/],
  });
  console.log('## Bundle');
  console.log(`landing initial JS: ${kb(figures.initial.raw)} raw, ${kb(figures.initial.gzip)} gzip`);
  for (const [name, size] of Object.entries(figures.routes)) {
    console.log(`${name} route JS in total: ${kb(size.raw)} raw, ${kb(size.gzip)} gzip`);
  }
  console.log(`all JS: ${kb(figures.js.raw)} raw, ${kb(figures.js.gzip)} gzip`);
  console.log(
    `whole build: ${kb(figures.whole.raw)} raw, ${kb(figures.whole.gzip)} gzip, ${figures.fileCount} files`,
  );
}
