import type { Db } from './db/database';

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

/**
 * Where the process's resident memory is, in MB: V8's heaps (this thread's and the embedded database
 * thread's), PGlite's WebAssembly memory, and the rest (code, native buffers, allocator). Logged on
 * SIGUSR2: only the server's own user (or root) can ask, and nothing is served over HTTP.
 */
export async function memoryFigures(db: Db) {
  const usage = process.memoryUsage();
  const database = await db.memory();
  const held = usage.heapTotal + (database ? database.heapTotal + database.wasm : 0);
  return {
    rss: mb(usage.rss),
    heapUsed: mb(usage.heapUsed),
    heapTotal: mb(usage.heapTotal),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    databaseHeapUsed: mb(database?.heapUsed ?? 0),
    databaseHeapTotal: mb(database?.heapTotal ?? 0),
    wasm: mb(database?.wasm ?? 0),
    other: mb(usage.rss - held),
  };
}
