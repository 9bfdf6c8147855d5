import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDataDir } from '../support/dataTemplate';
import { freePort } from '../support/server';

const compiled = 'build/server/main.js';

/**
 * The compiled server (as `npm start` runs it) under a parent that never reaps it: killed with -9, it
 * stays a zombie, which answers signal 0 like a live process, until that parent ends.
 */
function startUnreaped(dataDir: string, port: number) {
  const parent: ChildProcess = spawn(
    'sh',
    ['-c', `"${process.execPath}" ${compiled} & echo $! && exec sleep 120`],
    {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  parent.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  // The shell's first line is the server's process id; the server's own output follows.
  let stdout = '';
  const pid = new Promise<number>((resolve) => {
    parent.stdout?.on('data', (chunk) => {
      stdout += chunk;
      output += chunk;
      const line = /^(\d+)\n/.exec(stdout);
      if (line) resolve(Number(line[1]));
    });
  });
  return { parent, pid, output: () => output };
}

async function healthy(url: string, started: ReturnType<typeof startUnreaped>) {
  // A start takes ~5 s of CPU alone, several times that beside the browser tests on 2 cores.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (/DatabaseInUse|in use by a running Parley server/.test(started.output()))
      throw new Error(`refused:\n${started.output()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`did not start:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('restarting the embedded server right after kill -9', () => {
  // A database migrated and seeded already: every round is the restart this test is about.
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await seededDataDir('parley-restart-');
  }, 180_000);
  const started: ReturnType<typeof startUnreaped>[] = [];
  afterAll(async () => {
    // A server that never became healthy is still running (and writing): it goes before its folder.
    for (const server of started) {
      server.parent.kill('SIGKILL');
      try {
        process.kill(await server.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('is never refused, though the killed process still shows as a zombie', async () => {
    expect(existsSync(compiled), `${compiled} is made by npm run build`).toBe(true);
    let previous: number | undefined;
    for (let round = 0; round < 10; round += 1) {
      const port = await freePort();
      // At once: the next server starts in the same tick as the kill.
      if (previous) process.kill(previous, 'SIGKILL');
      const server = startUnreaped(dataDir, port);
      started.push(server);
      await healthy(`http://127.0.0.1:${port}`, server);
      previous = await server.pid;
    }
    if (previous) process.kill(previous, 'SIGKILL');
  }, 300_000);
});
