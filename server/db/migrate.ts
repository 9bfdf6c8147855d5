import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsFolder as folder } from '../paths';
import type { Db } from './database';

/** Held while migrating: nodes starting together on one database migrate one after the other. */
const migrationLock = 7_432_001;

export const migrationFiles = () =>
  readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort();

/**
 * Applies the SQL files of `migrations/` not applied yet, in name order, in one transaction under an
 * advisory lock: a second node waits, then finds nothing left to do.
 */
export async function migrate(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [migrationLock]);
    await tx.exec(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const applied = new Set(
      (await tx.query<{ name: string }>('select name from schema_migrations')).rows.map((row) => row.name),
    );
    const pending = migrationFiles().filter((name) => !applied.has(name));
    for (const name of pending) {
      await tx.exec(readFileSync(join(folder, name), 'utf8'));
      await tx.query('insert into schema_migrations (name) values ($1)', [name]);
    }
    return pending;
  });
}

/** Whether every migration file has been applied: a node is ready only then. */
export async function migrated(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ name: string }>('select name from schema_migrations');
  const applied = new Set(rows.map((row) => row.name));
  return migrationFiles().every((name) => applied.has(name));
}
