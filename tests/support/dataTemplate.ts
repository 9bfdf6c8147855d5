import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { seed } from '../../server/seed/seed';

/**
 * A server's first start on an empty folder costs about 14 s of CPU (PostgreSQL's initdb, every
 * migration, the demo data); opening a database that is already there about 5. Test servers start on a
 * copy of one database made that way once per version of the database code (migrations, seed, PGlite),
 * through the server's own openDatabase, migrate and seed. Only pgdata is copied: each server makes its
 * own keys, with `prepared` (which says the database needs no preparing thread of its own). The first
 * start itself stays tested where it matters (seed, restart and operator tests start on folders of
 * their own).
 */
const sources = ['server/db', 'server/seed', 'package-lock.json'];

function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesOf(join(path, name)));
}

function versionOfDatabaseCode(): string {
  const hash = createHash('sha256');
  for (const file of sources.flatMap(filesOf)) hash.update(file).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The template's pgdata, made by the first test process that needs it; the others wait for it. */
async function template(): Promise<string> {
  const folder = join(tmpdir(), `parley-test-database-${versionOfDatabaseCode()}`);
  const pgdata = join(folder, 'pgdata');
  const lock = `${folder}.lock`;
  for (;;) {
    if (existsSync(pgdata)) return pgdata;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another process makes it; a lock older than two minutes was left by a process that died.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 120_000) rmSync(lock, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    const making = mkdtempSync(`${folder}-making-`);
    const db = await openDatabase({ dataDir: making, databasePoolSize: 1 }, async (fresh) => {
      await migrate(fresh);
      await seed(fresh);
    });
    await db.close();
    rmSync(join(making, 'parley.lock'), { force: true });
    renameSync(making, folder);
    return pgdata;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A new data folder holding a migrated database with the demo data, as after a server's first start. */
export async function seededDataDir(prefix: string): Promise<string> {
  const pgdata = await template();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(pgdata, join(dataDir, 'pgdata'), { recursive: true });
  cpSync(join(pgdata, '..', 'prepared'), join(dataDir, 'prepared'));
  return dataDir;
}
