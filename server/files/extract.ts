import type { Worker } from 'node:worker_threads';
import { extractWorkerFile, startWorker } from '../paths';
import type { ExtractJob } from './extractWorker';
import { type Reading, type Refusal, unreadable, type WorkerAnswer } from './kinds';

export interface ExtractLimits {
  timeoutMs: number;
  memoryMb: number;
  /** Readings at once on this node; more wait their turn. */
  concurrency: number;
}

/**
 * Reads uploads in worker threads, one thread per upload: a thread over its memory limit dies alone,
 * and one past the time limit is ended, so a hostile file costs at most that, and the server goes on.
 */
export function createExtractor(limits: ExtractLimits) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = async () => {
    if (running >= limits.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
  };
  const done = () => {
    running -= 1;
    waiting.shift()?.();
  };

  function run(job: ExtractJob): Promise<Reading | Refusal> {
    return new Promise((resolve) => {
      let worker: Worker;
      let settled = false;
      const settle = (answer: Reading | Refusal) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        resolve(answer);
      };
      const timer = setTimeout(
        () =>
          settle(
            unreadable(
              `The file could not be read within ${Math.round(limits.timeoutMs / 1000)} seconds: it is too complex.`,
            ),
          ),
        limits.timeoutMs,
      );
      worker = startWorker(extractWorkerFile, {
        workerData: job,
        resourceLimits: {
          maxOldGenerationSizeMb: limits.memoryMb,
          maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.round(limits.memoryMb / 8))),
        },
      });
      worker.on('message', ({ ok, ...answer }: WorkerAnswer) => settle(answer as Reading | Refusal));
      worker.on('error', (error: Error & { code?: string }) =>
        settle(
          unreadable(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? 'The file needs too much memory to read: it is not accepted.'
              : 'The file could not be read.',
          ),
        ),
      );
      worker.on('exit', () => settle(unreadable('The file could not be read.')));
    });
  }

  return {
    async read(job: ExtractJob): Promise<Reading | Refusal> {
      await turn();
      try {
        return await run(job);
      } finally {
        done();
      }
    },
  };
}
export type Extractor = ReturnType<typeof createExtractor>;
