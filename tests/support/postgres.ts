import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server';

export interface RunningPostgres {
  url: string;
  stop: () => void;
}

/** The server binaries of Debian's `postgresql` package (`.ci/run` installs it when missing). */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort().at(-1) : undefined;
  const folder = version ? join(root, version, 'bin') : '';
  if (!folder || !existsSync(join(folder, 'initdb'))) {
    throw new Error('PostgreSQL server binaries not found: apt-get install postgresql (.ci/run does this)');
  }
  return folder;
}

/** A throwaway PostgreSQL cluster on a free loopback port; as root it runs as `nobody`, as initdb demands. */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = binaries();
  const folder = mkdtempSync(join(tmpdir(), 'parley-pg-'));
  const data = join(folder, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(folder, 65534, 65534);
  const run = (command: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, command),
      asRoot ? ['-u', 'nobody', '--', join(bin, command), ...args] : args,
      {
        stdio: 'pipe',
        cwd: folder,
      },
    );
  const port = await freePort();
  // A UTF-8 locale, as production clusters have: lower() and the text search fold every script.
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-instructions',
  ]);
  run('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    join(folder, 'log'),
    '-o',
    `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      run('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
