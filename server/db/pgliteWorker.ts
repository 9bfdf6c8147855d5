import { writeFileSync } from 'node:fs';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol, type Transaction } from '@electric-sql/pglite';

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
try {
  // Named for whoever lists a process's threads (top -H, the bench's CPU by thread); Linux only.
  writeFileSync('/proc/thread-self/comm', 'pglite');
} catch {
  // another system: the thread keeps its name
}
/**
 * Sized for one process serving a small database: PostgreSQL's defaults (128 MB of shared buffers
 * and connections for 100) are for a server of its own; WebAssembly memory, once grown, is never
 * given back. Tables of a few hundred MB still work, with more reads from the files (the page cache).
 */
const settings = {
  shared_buffers: '16MB',
  max_connections: '10',
  work_mem: '4MB',
  maintenance_work_mem: '16MB',
  temp_buffers: '4MB',
};
setFlagsFromString('--wasm-lazy-compilation');
const db = await PGlite.create(workerData.directory as string, {
  startParams: [
    ...PGlite.defaultStartParams,
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ],
});

/** What PGlite's own query() uses, not in its typed interface. */
const internals = db as unknown as {
  _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  serializers: Record<number, (value: unknown) => string>;
  parsers: Parameters<typeof parse.parseResults>[1];
};

/**
 * Statements are prepared once and then only bound and executed: parsing, analysing and planning
 * were most of the embedded database's work per request (PGlite's query() does all of it each time,
 * in five trips into WebAssembly; here a query is one). The server's SQL is a fixed set of texts; past
 * this many, new texts run unprepared.
 */
const maxPrepared = 1000;
/**
 * A prepared statement is planned for its values five times, then PostgreSQL may keep a generic
 * plan. A recursive walk's generic plan (a reply's branch) grew slower with every message: those
 * statements run unprepared, planned for their values each time.
 */
const plannedEachTime = /\bwith\s+recursive\b/i;
interface Prepared {
  name: string;
  types: number[];
  /** The statement's row description, which a bound execution does not repeat. */
  fields: Parameters<typeof parse.parseResults>[0][number] | undefined;
}
const prepared = new Map<string, Prepared>();

const joined = (parts: Uint8Array[]) => {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
};

/** A statement's rows, prepared on first use; in a transaction of ours (`tx`) or on its own. */
async function query(sql: string, params: unknown[] = [], tx?: number): Promise<unknown[]> {
  const open = tx === undefined ? undefined : transactions.get(tx)?.tx;
  if ((!prepared.has(sql) && prepared.size >= maxPrepared) || plannedEachTime.test(sql))
    return (await (open ?? db).query(sql, params)).rows;
  const { serialize } = protocol;
  const run = () =>
    internals._runExclusiveQuery(async () => {
      let statement = prepared.get(sql);
      if (!statement) {
        const name = `parley_${prepared.size}`;
        // An error skips to the Sync: the statement is then not kept, and the session is ready again.
        const described = await db.execProtocol(
          joined([
            serialize.parse({ name, text: sql }),
            serialize.describe({ type: 'S', name }),
            serialize.sync(),
          ]),
          { syncToFs: false },
        );
        statement = {
          name,
          types: parse.parseDescribeStatementResults(described.messages),
          fields: described.messages.find((message) => message.name === 'rowDescription'),
        };
        prepared.set(sql, statement);
      }
      const types = statement.types;
      const values = params.map((value, index) =>
        value === null || value === undefined
          ? null
          : (internals.serializers[types[index]]?.(value) ?? String(value)),
      );
      const executed = await db.execProtocol(
        joined([
          serialize.bind({ statement: statement.name, values }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      const messages = statement.fields ? [statement.fields, ...executed.messages] : executed.messages;
      if (!open) await db.syncToFs();
      return parse.parseResults(messages, internals.parsers)[0]?.rows ?? [];
    });
  // Like PGlite's own: a statement outside a transaction waits for the open one to end.
  return open ? run() : internals._runExclusiveTransaction(run);
}

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
      return query(request.sql, request.params, request.tx);
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
