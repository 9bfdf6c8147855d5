import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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

/** Whether `pid` is a process that still runs: a zombie (state Z, exited but not yet reaped) is gone. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
  try {
    // The state follows the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    // No /proc (not Linux): signal 0 is all we can ask. Gone between the two questions: gone.
    return process.platform !== 'linux';
  }
}

/** How long a holder that still runs is given to go away (it may be dying from kill -9) before refusing. */
const goingAwayMs = 3000;

/** Waits up to `goingAwayMs` for `pid` to end; answers whether it still runs. */
async function stillAlive(pid: number): Promise<boolean> {
  const deadline = Date.now() + goingAwayMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * PGlite is one process's database: whoever opens a data folder (the server, or the operator's command)
 * holds `parley.lock` there, with its process id, until it closes it. A lock whose process is gone (a
 * crash) is taken over, and so is one whose process is still going away (a restart right after a
 * kill -9): it is given a few seconds. Answers the release.
 */
export async function lockDataDir(directory: string): Promise<() => void> {
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
        !Number.isSafeInteger(pid) ||
        pid <= 0 ||
        (pid === process.pid ? !held.has(file) : !(await stillAlive(pid)));
      if (!stale) throw new DatabaseInUse(directory, pid, file);
      try {
        unlinkSync(file);
      } catch {
        // another process took it over first: try again
      }
    }
  }
}
