import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { pgliteWorkerFile, startWorker } from '../paths';
import { lockDataDir } from './lock';
import { migrationFiles } from './migrate';
import type { WorkerMemory, WorkerMessage, WorkerRequest } from './pgliteWorker';

export interface QueryResult<T> {
  rows: T[];
}

/** The one database interface the server uses: PGlite embedded, or PostgreSQL via DATABASE_URL. */
export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs `work` in one transaction: all of it is stored, or none of it. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, from any node of the database
   * (this one included). Answers a function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** The embedded database's thread: its heap and WebAssembly memory (none with PostgreSQL). */
  memory(): Promise<WorkerMemory | null>;
  close(): Promise<void>;
}

/** A Db bound to an open transaction: a nested transaction simply joins it. */
function inTransaction(runner: Runner, listen: Db['listen']): Db {
  const tx: Db = {
    ...runner,
    transaction: (work) => work(tx),
    listen,
    memory: async () => null,
    close: async () => {},
  };
  return tx;
}
type Runner = Omit<Db, 'transaction' | 'close' | 'listen' | 'memory'>;

// NUMERIC arrives as text from both drivers; money is read with Number() where it is used.

/**
 * PGlite in a worker thread (pgliteWorker.ts): every statement is a message there and back. A new
 * database, or one with migrations to apply, is prepared (migrations, seeding) on a first thread, which
 * is then ended: a WebAssembly memory never shrinks, and creating the database, migrating and seeding
 * grow it (and leave initdb's instance for the garbage collector) far beyond what serving needs. The
 * second thread starts from the files. A database prepared by this version already (the file
 * `prepared` lists its migrations) is prepared on the serving thread: checking costs little, and a
 * restart saves starting PostgreSQL twice (about 2 s of CPU).
 */
async function openPglite(dataDir: string, prepare?: (db: Db) => Promise<void>): Promise<Db> {
  const directory = join(dataDir, 'pgdata');
  mkdirSync(directory, { recursive: true });
  // One process at a time: a second one is refused with a plain sentence (server/db/lock.ts).
  const unlock = await lockDataDir(dataDir);
  const marker = join(dataDir, 'prepared');
  const version = migrationFiles().join('\n');
  const current = existsSync(marker) && readFileSync(marker, 'utf8') === version;
  try {
    if (prepare && !current) {
      const first = await startPglite(directory, () => {});
      try {
        await prepare(first);
      } finally {
        await first.close();
      }
      writeFileSync(marker, version);
    }
    const db = await startPglite(directory, unlock);
    if (prepare && current)
      await prepare(db).catch(async (error) => {
        await db.close();
        throw error;
      });
    return db;
  } catch (error) {
    unlock();
    throw error;
  }
}

async function startPglite(directory: string, unlock: () => void): Promise<Db> {
  // Its JavaScript is mostly short-lived protocol messages and rows: a small young generation keeps
  // its heap near what it uses (V8's default lets it grow by tens of MB between collections).
  const worker = startWorker(pgliteWorkerFile, {
    workerData: { directory },
    resourceLimits: { maxYoungGenerationSizeMb: 6 },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 0;
  let nextTransaction = 0;
  const ready = new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: () => resolve(), reject });
  });
  worker.on('message', (message: WorkerMessage) => {
    if ('notify' in message) {
      for (const listener of listeners.get(message.notify) ?? []) listener(message.payload);
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if ('error' in message) waiting?.reject(Object.assign(new Error(message.error.message), message.error));
    else waiting?.resolve(message.result);
  });
  const fail = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the database worker stopped')));
  await ready;

  const call = <T>(request: DistributiveOmit<WorkerRequest, 'id'>) =>
    new Promise<T>((resolve, reject) => {
      nextId += 1;
      pending.set(nextId, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id: nextId });
    });
  const runner = (tx?: number): Runner => ({
    query: async <T>(sql: string, params?: unknown[]) => ({
      rows: await call<T[]>({ kind: 'query', sql, params, tx }),
    }),
    exec: async (sql: string) => {
      await call({ kind: 'exec', sql, tx });
    },
  });
  const listen: Db['listen'] = async (channel, onMessage) => {
    const isNew = !listeners.has(channel);
    if (isNew) listeners.set(channel, new Set());
    listeners.get(channel)?.add(onMessage);
    if (isNew) await call({ kind: 'listen', channel });
    return async () => {
      listeners.get(channel)?.delete(onMessage);
    };
  };
  return {
    ...runner(),
    async transaction(work) {
      nextTransaction += 1;
      const tx = nextTransaction;
      await call({ kind: 'begin', tx });
      try {
        const result = await work(inTransaction(runner(tx), listen));
        await call({ kind: 'end', tx, commit: true });
        return result;
      } catch (error) {
        await call({ kind: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
    },
    listen,
    memory: () => call<WorkerMemory>({ kind: 'memory' }),
    close: async () => {
      try {
        await call({ kind: 'close' });
        await worker.terminate();
      } finally {
        unlock();
      }
    },
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

async function openPostgres(connectionString: string, poolSize: number): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection the database ends (a restart, a failover, a shutdown) is dropped by the pool and
  // the next query opens another; unhandled, its error would end the process.
  pool.on('error', () => {});
  await pool.query('select 1');
  const listen = postgresListener(connectionString);
  const over = (client: pg.Pool | pg.PoolClient): Runner => ({
    query: async <T>(sql: string, params?: unknown[]) => ({
      rows: (await client.query(sql, params)).rows as T[],
    }),
    exec: async (sql: string) => {
      await client.query(sql);
    },
  });
  const db: Db = {
    ...over(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(inTransaction(over(client), listen.on));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    listen: listen.on,
    memory: async () => null,
    close: async () => {
      await listen.close();
      await pool.end();
    },
  };
  return db;
}

/**
 * LISTEN needs a connection of its own that stays open: one per node for every channel, opened on
 * first use and opened again (listening anew) when it breaks.
 */
function postgresListener(connectionString: string) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: Promise<pg.Client> | null = null;
  let closed = false;
  const connect = (): Promise<pg.Client> => {
    const opening = (async () => {
      const connection = new pg.Client({ connectionString });
      connection.on('notification', ({ channel, payload }) => {
        for (const handler of handlers.get(channel) ?? []) handler(payload ?? '');
      });
      connection.on('error', () => {
        client = null;
        connection.end().catch(() => {});
        if (!closed) setTimeout(() => void connect().catch(() => {}), 1000).unref();
      });
      await connection.connect();
      for (const channel of handlers.keys()) await connection.query(`listen "${channel}"`);
      return connection;
    })();
    client = opening;
    opening.catch(() => {
      client = null;
    });
    return opening;
  };
  return {
    on: async (channel: string, onMessage: (payload: string) => void) => {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const isNew = !handlers.has(channel);
      if (isNew) handlers.set(channel, new Set());
      handlers.get(channel)?.add(onMessage);
      const connection = await (client ?? connect());
      if (isNew) await connection.query(`listen "${channel}"`);
      return async () => {
        handlers.get(channel)?.delete(onMessage);
      };
    },
    close: async () => {
      closed = true;
      const connection = await client?.catch(() => null);
      await connection?.end().catch(() => {});
    },
  };
}

/** Opens the database; `prepare` (migrations, seeding) runs before it is handed out. */
export async function openDatabase(
  options: { databaseUrl?: string; dataDir: string; databasePoolSize: number },
  prepare?: (db: Db) => Promise<void>,
): Promise<Db> {
  if (!options.databaseUrl) return openPglite(options.dataDir, prepare);
  const db = await openPostgres(options.databaseUrl, options.databasePoolSize);
  try {
    await prepare?.(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
