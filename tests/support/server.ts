import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverEnv, serverNodeArgs } from '../../scripts/serverProcess.mjs';
import { seededDataDir } from './dataTemplate';

export interface RunningServer {
  /** The server's process id. */
  pid: number;
  port: number;
  url: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
  /** Kills the process at once (SIGKILL), as a crash would; the data folder is kept. */
  crash: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const built = 'build/server/main.js';

/** The newest modification time under `path`, in ms. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** build/server/main.js is newer than every source it was made of (npm test builds it first). */
const builtIsCurrent = () =>
  existsSync(built) && statSync(built).mtimeMs >= Math.max(...['server', 'machines'].map(newest));

/**
 * Starts the server on a free port: from its TypeScript sources, or `compiled` as `npm start` runs it
 * (build/server/main.js, made by `npm run build`; the default while it is current, as it starts with a
 * third less CPU), with `nodeArgs` for node. Its data dir is the given DATA_DIR, a new one for
 * PostgreSQL, or under tests a copy of a migrated and seeded database (dataTemplate.ts): the
 * benchmarks measure a real first start.
 */
export async function startServer(
  env: Record<string, string> = {},
  { compiled = builtIsCurrent(), nodeArgs = [] }: { compiled?: boolean; nodeArgs?: string[] } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir =
    env.DATA_DIR ??
    (process.env.VITEST && !env.DATABASE_URL
      ? await seededDataDir('parley-e2e-')
      : mkdtempSync(join(tmpdir(), 'parley-e2e-')));
  let log = '';
  // Compiled, it is started as `npm start` starts it; under tests its database's WebAssembly is not
  // optimized (--liftoff-only): a test server lives seconds to minutes, and optimizing PostgreSQL's
  // code costs 2 of the 5.6 s of CPU a start takes (the benchmarks start it as `npm start` does).
  const entry = [
    ...(process.env.VITEST ? ['--liftoff-only'] : []),
    ...nodeArgs,
    ...(compiled ? [...serverNodeArgs, built] : ['--import', 'tsx', 'server/main.ts']),
  ];
  const child: ChildProcess = spawn(process.execPath, entry, {
    env: {
      ...(compiled ? serverEnv : {}),
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // A server that never answered is not left running after the test that gave up on it.
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  return {
    pid: child.pid ?? 0,
    port,
    url,
    dataDir,
    output: () => log,
    stop: async () => {
      await end('SIGTERM');
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
    crash: () => end('SIGKILL'),
  };
}
