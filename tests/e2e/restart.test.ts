import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';

describe('the embedded server restarted at once after kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-restart-'));
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts again every time: a process going away does not hold the database (20 times)', async () => {
    for (let round = 0; round < 20; round += 1) {
      server = await startServer({ DATA_DIR: dataDir, STATIC_DIR: '' }, { compiled: true });
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      // SIGKILL, and start again without waiting for the process to be gone.
      process.kill(server.pid, 'SIGKILL');
    }
    server = await startServer({ DATA_DIR: dataDir, STATIC_DIR: '' }, { compiled: true });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  }, 240_000);
});
