import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Runs after `vite build`: precompresses the web app and compiles the server to plain JavaScript. */

const dist = 'dist';
const compressible = /\.(js|css|html|svg|json|webmanifest|txt)$/;

// Brotli and gzip next to each text file, served as they are (no compression per request).
function precompress(folder: string): number {
  let count = 0;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) count += precompress(path);
    else if (compressible.test(name) && statSync(path).size >= 1024) {
      const source = readFileSync(path);
      writeFileSync(
        `${path}.br`,
        brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
      count += 1;
    }
  }
  return count;
}

// One ES module with the packages left as imports; what it reads at run time is copied beside it
// where server/paths.ts looks for it.
async function compileServer() {
  const out = join('build', 'server');
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: 'server/main.ts',
      'db/pgliteWorker': 'server/db/pgliteWorker.ts',
      'files/extractWorker': 'server/files/extractWorker.ts',
    },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  cpSync(join('server', 'db', 'migrations'), join(out, 'db', 'migrations'), { recursive: true });
  cpSync(join('server', 'i18n', 'catalogs'), join(out, 'i18n', 'catalogs'), { recursive: true });
  cpSync(join('server', 'seed', 'guide'), join(out, 'seed', 'guide'), { recursive: true });
}

const files = precompress(dist);
await compileServer();
console.log(`precompressed ${files} files in ${dist}/ (br, gz); compiled the server to build/server/main.js`);
