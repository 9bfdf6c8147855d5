import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestServer } from '../../support/app';
import { type RunningServer, startServer } from '../../support/server';
import { pdfBomb, upload } from './support';

/** A process's resident memory in MB (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The processes a process started, and theirs. */
function descendants(pid: number): number[] {
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
    return children.flatMap((child) => [child, ...descendants(child)]);
  } catch {
    return [];
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The review's PDF stream bomb (1 MB whose page inflates to 1 GB) against a spawned server, its memory
 * sampled every 50 ms from /proc: the server's own, and with the processes it started.
 */
describe('a PDF stream bomb', () => {
  let server: RunningServer;
  let members: Awaited<ReturnType<typeof signUp>>[];
  const bomb = pdfBomb(1024);
  const figures: Record<string, number | string>[] = [];

  beforeAll(async () => {
    server = await startServer();
    const asTest = server as unknown as TestServer;
    members = [await signUp(asTest), await signUp(asTest)];
  });
  afterAll(async () => {
    console.table(figures);
    await server?.stop();
  });

  /**
   * Uploads the bomb from `count` members at once (one member's uploads are read one after another);
   * RSS sampled until 5 s after the last answer.
   */
  async function measure(count: number) {
    await sleep(1000);
    const idle = rssMb(server.pid);
    let peak = idle;
    let peakWithChildren = idle;
    const sampler = setInterval(() => {
      const own = rssMb(server.pid);
      peak = Math.max(peak, own);
      peakWithChildren = Math.max(
        peakWithChildren,
        own + descendants(server.pid).reduce((sum, pid) => sum + rssMb(pid), 0),
      );
    }, 50);
    const started = performance.now();
    const answers = await Promise.all(
      members
        .slice(0, count)
        .map((member) =>
          upload(server as unknown as TestServer, member, bomb, 'bomb.pdf', 'application/pdf'),
        ),
    );
    const took = performance.now() - started;
    const atAnswer = rssMb(server.pid);
    await sleep(5000);
    clearInterval(sampler);
    const after = rssMb(server.pid);
    figures.push({
      pdfs: count,
      bytes: bomb.length,
      statuses: answers.map((answer) => answer.status).join(' '),
      ms: Math.round(took),
      idleMb: Math.round(idle),
      peakMb: Math.round(peak),
      peakWithReadersMb: Math.round(peakWithChildren),
      atAnswerMb: Math.round(atAnswer),
      after5sMb: Math.round(after),
    });
    return { answers, idle, peak, peakWithChildren, after };
  }

  for (const count of [1, 2])
    it(`refuses ${count === 1 ? 'one' : 'two at once'} with a clear 4xx, the server's memory within idle + 300 MB and back within idle + 150 MB 5 s after`, async () => {
      const { answers, idle, peak, peakWithChildren, after } = await measure(count);
      for (const answer of answers) {
        expect([413, 422]).toContain(answer.status);
        expect(answer.body.error).toMatch(/too much memory|within \d+ seconds/);
      }
      expect(peak - idle).toBeLessThan(300);
      expect(after - idle).toBeLessThan(150);
      // The reading processes too: each within EXTRACT_MEMORY_MB (256) beyond its start, and 20 ms of growth.
      expect(peakWithChildren - idle).toBeLessThan(count * (256 + 128));
    });
});
