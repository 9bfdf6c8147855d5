import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';

/**
 * The embedded database in a thread of its own: PGlite's work (WebAssembly and file writes) runs
 * beside the request handling instead of blocking it. The main thread talks to it by messages
 * (server/db/database.ts); a transaction is a run of messages between `begin` and `end`.
 */
export type WorkerRequest =
  | { id: number; kind: 'query'; sql: string; params?: unknown[]; tx?: number }
  | { id: number; kind: 'exec'; sql: string; tx?: number }
  | { id: number; kind: 'begin'; tx: number }
  | { id: number; kind: 'end'; tx: number; commit: boolean }
  | { id: number; kind: 'listen'; channel: string }
  | { id: number; kind: 'memory' }
  | { id: number; kind: 'close' };

/** What this thread holds: its V8 heap and PGlite's WebAssembly memory (which only ever grows). */
export interface WorkerMemory {
  heapUsed: number;
  heapTotal: number;
  wasm: number;
}

export type WorkerMessage =
  | { id: number; result: unknown }
  | { id: number; error: { message: string; code?: string; constraint?: string } }
  | { notify: string; payload: string };

const port = parentPort;
if (!port) throw new Error('pgliteWorker runs as a worker thread');
const db = await PGlite.create(workerData.directory as string);

class RolledBack extends Error {}
const transactions = new Map<
  number,
  { tx: Transaction; finish: (commit: boolean) => void; done: Promise<void> }
>();
const runner = (tx?: number) => (tx === undefined ? db : transactions.get(tx)?.tx) ?? db;

function begin(id: number): Promise<void> {
  return new Promise((started, failed) => {
    let finish: (commit: boolean) => void = () => {};
    const decided = new Promise<boolean>((resolve) => {
      finish = resolve;
    });
    const done = db
      .transaction(async (tx) => {
        transactions.set(id, { tx, finish, done });
        started();
        if (!(await decided)) throw new RolledBack();
      })
      .catch((error) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    done.catch(failed);
  });
}

async function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.kind) {
    case 'query':
      return (await runner(request.tx).query(request.sql, request.params)).rows;
    case 'exec':
      await runner(request.tx).exec(request.sql);
      return null;
    case 'begin':
      await begin(request.tx);
      return null;
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) return null;
      open.finish(request.commit);
      try {
        await open.done;
      } finally {
        transactions.delete(request.tx);
      }
      return null;
    }
    case 'listen':
      await db.listen(request.channel, (payload) => port?.postMessage({ notify: request.channel, payload }));
      return null;
    case 'memory': {
      const heap = getHeapStatistics();
      // Emscripten exports the unsigned view of the module's memory.
      const wasm = (db as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8?.buffer.byteLength ?? 0;
      return {
        heapUsed: heap.used_heap_size,
        heapTotal: heap.total_heap_size,
        wasm,
      } satisfies WorkerMemory;
    }
    case 'close':
      await db.close();
      return null;
  }
}

port.on('message', (request: WorkerRequest) => {
  handle(request).then(
    (result) => port.postMessage({ id: request.id, result } satisfies WorkerMessage),
    (error: Error & { code?: string; constraint?: string }) =>
      port.postMessage({
        id: request.id,
        error: { message: error.message, code: error.code, constraint: error.constraint },
      } satisfies WorkerMessage),
  );
});
port.postMessage({ id: 0, result: 'ready' } satisfies WorkerMessage);
