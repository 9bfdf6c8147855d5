import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

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
  close(): Promise<void>;
}

/** A Db bound to an open transaction: a nested transaction simply joins it. */
function inTransaction(runner: Runner, listen: Db['listen']): Db {
  const tx: Db = {
    ...runner,
    transaction: (work) => work(tx),
    listen,
    close: async () => {},
  };
  return tx;
}
type Runner = Omit<Db, 'transaction' | 'close' | 'listen'>;

// NUMERIC arrives as text from both drivers; money is read with Number() where it is used.

async function openPglite(dataDir: string): Promise<Db> {
  const directory = join(dataDir, 'pgdata');
  mkdirSync(directory, { recursive: true });
  const database = await PGlite.create(directory);
  // PGlite runs one statement at a time: a transaction holds it until done, so nothing interleaves.
  const wrap = (runner: Pick<PGlite, 'query' | 'exec'>): Runner => ({
    query: async <T>(sql: string, params?: unknown[]) => ({
      rows: (await runner.query<T>(sql, params)).rows,
    }),
    exec: async (sql: string) => {
      await runner.exec(sql);
    },
  });
  const listen: Db['listen'] = (channel, onMessage) => database.listen(channel, onMessage);
  const db: Db = {
    ...wrap(database),
    transaction: (work) => database.transaction((tx) => work(inTransaction(wrap(tx), listen))),
    listen,
    close: () => database.close(),
  };
  return db;
}

async function openPostgres(connectionString: string, poolSize: number): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
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

export function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  databasePoolSize: number;
}): Promise<Db> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.databasePoolSize)
    : openPglite(options.dataDir);
}
