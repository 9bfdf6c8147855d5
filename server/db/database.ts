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
  close(): Promise<void>;
}

/** A Db bound to an open transaction: a nested transaction simply joins it. */
function inTransaction(runner: Omit<Db, 'transaction' | 'close'>): Db {
  const tx: Db = {
    ...runner,
    transaction: (work) => work(tx),
    close: async () => {},
  };
  return tx;
}

// NUMERIC arrives as text from both drivers; money is read with Number() where it is used.

async function openPglite(dataDir: string): Promise<Db> {
  const directory = join(dataDir, 'pgdata');
  mkdirSync(directory, { recursive: true });
  const database = await PGlite.create(directory);
  // PGlite runs one statement at a time: a transaction holds it until done, so nothing interleaves.
  const wrap = (runner: Pick<PGlite, 'query' | 'exec'>): Omit<Db, 'transaction' | 'close'> => ({
    query: async <T>(sql: string, params?: unknown[]) => ({
      rows: (await runner.query<T>(sql, params)).rows,
    }),
    exec: async (sql: string) => {
      await runner.exec(sql);
    },
  });
  const db: Db = {
    ...wrap(database),
    transaction: (work) => database.transaction((tx) => work(inTransaction(wrap(tx)))),
    close: () => database.close(),
  };
  return db;
}

async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  await pool.query('select 1');
  const over = (client: pg.Pool | pg.PoolClient): Omit<Db, 'transaction' | 'close'> => ({
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
        const result = await work(inTransaction(over(client)));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
  return db;
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}
