import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded database is in use by another process: said plainly, never a corrupted database. */
export class DatabaseInUse extends Error {
  readonly pid: number;
  constructor(directory: string, pid: number, file: string) {
    super(
      `The embedded database in ${directory} is in use by a running Parley server (process ${pid}). ` +
        'Stop the server first, then try again. (With PostgreSQL, DATABASE_URL, organizations can be managed ' +
        `while nodes run.) If no Parley process is running, delete ${file}.`,
    );
    this.pid = pid;
  }
}

const held = new Set<string>();

/** Whether the process runs: one that has exited but is not yet reaped (a zombie, on Linux) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    // No /proc (not Linux): the signal said it runs. Gone meanwhile: it does not.
    return existsSync(`/proc/${pid}`) || !existsSync('/proc/self');
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/**
 * Whether the process still runs after a moment: one killed a moment ago (kill -9, then a restart at
 * once) may still answer while the kernel tears it down.
 */
function stillAlive(pid: number, waitMs = 3000): boolean {
  for (let waited = 0; alive(pid); waited += 50) {
    if (waited >= waitMs) return true;
    Atomics.wait(pause, 0, 0, 50);
  }
  return false;
}

/**
 * PGlite is one process's database: whoever opens a data folder (the server, or the operator's command)
 * holds `parley.lock` there, with its process id, until it closes it. A lock whose process is gone (a
 * crash, or one going away right now) is taken over. Answers the release.
 */
export function lockDataDir(directory: string): () => void {
  const file = join(directory, 'parley.lock');
  for (let attempt = 0; ; attempt += 1) {
    try {
      const descriptor = openSync(file, 'wx', 0o600);
      writeSync(descriptor, `${process.pid}\n`);
      closeSync(descriptor);
      held.add(file);
      return () => {
        held.delete(file);
        try {
          if (Number(readFileSync(file, 'utf8').trim()) === process.pid) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST' || attempt > 2) throw error;
      let pid = Number.NaN;
      try {
        pid = Number(readFileSync(file, 'utf8').trim());
      } catch {
        continue;
      }
      const stale =
        !Number.isSafeInteger(pid) || pid <= 0 || (pid === process.pid ? !held.has(file) : !stillAlive(pid));
      if (!stale) throw new DatabaseInUse(directory, pid, file);
      try {
        unlinkSync(file);
      } catch {
        // another process took it over first: try again
      }
    }
  }
}
