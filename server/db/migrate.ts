import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './database';

const folder = join(import.meta.dirname, 'migrations');

/** Applies the SQL files of `migrations/` not applied yet, in name order, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec(
    'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  const applied = new Set(
    (await db.query<{ name: string }>('select name from schema_migrations')).rows.map((row) => row.name),
  );
  const pending = readdirSync(folder)
    .filter((name) => name.endsWith('.sql') && !applied.has(name))
    .sort();
  for (const name of pending) {
    await db.transaction(async (tx) => {
      await tx.exec(readFileSync(join(folder, name), 'utf8'));
      await tx.query('insert into schema_migrations (name) values ($1)', [name]);
    });
  }
  return pending;
}
