import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { extractWorkerFile, startProcess } from '../paths';
import type { ExtractJob, Started } from './extractWorker';
import { type Reading, type Refusal, unreadable } from './kinds';

export interface ExtractLimits {
  timeoutMs: number;
  memoryMb: number;
}

const megabyte = 1024 * 1024;
/** A reading process not started by then never will. */
const startLimitMs = 30_000;
const tooMuchMemory = () => unreadable('The file needs too much memory to read: it is not accepted.');

/** A process's resident memory in bytes, from /proc (Linux); null where there is none. */
function residentBytes(pid: number): number | null {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return line ? Number(line[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Reads uploads in processes of their own, one per upload (./extractWorker.ts). A heap limit does not
 * see what a reader decodes into buffers (a PDF stream inflating to gigabytes), so the process's
 * resident memory is watched every 20 ms: past `memoryMb` beyond its start it is ended, as it is past
 * the time limit. A hostile file costs at most that, and its memory goes back to the system with its
 * process, whole, which a thread of the server could not give back.
 */
export function createExtractor(limits: ExtractLimits) {
  return {
    read(job: ExtractJob): Promise<Reading | Refusal> {
      return new Promise((resolve) => {
        let limit = Number.POSITIVE_INFINITY;
        let settled = false;
        const settle = (answer: Reading | Refusal) => {
          settled = true;
          clearTimeout(timer);
          clearInterval(watch);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          resolve(answer);
        };
        // The time limit is the reading's, from the moment the process has started: Node's own start
        // is no part of it (a second or more on a busy machine), and has a limit of its own.
        let timer = setTimeout(() => settle(unreadable('The file could not be read.')), startLimitMs);
        // Its heap's own limit is a backstop where /proc is missing: on Linux the watch ends the
        // process first (SIGKILL), where V8 past its heap limit would abort (and perhaps dump core).
        const child: ChildProcess = startProcess(extractWorkerFile, {
          execArgv: [`--max-old-space-size=${2 * limits.memoryMb}`],
          serialization: 'advanced',
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        });
        const watch = setInterval(() => {
          const resident = residentBytes(child.pid ?? 0);
          if (resident === null) clearInterval(watch);
          else if (resident > limit) settle(tooMuchMemory());
        }, 20);
        child.on('message', (message: Started | Reading | Refusal) => {
          if (settled) return;
          if (!('started' in message)) return settle(message);
          limit = message.started + limits.memoryMb * megabyte;
          clearTimeout(timer);
          timer = setTimeout(
            () =>
              settle(
                unreadable(
                  `The file could not be read within ${Math.round(limits.timeoutMs / 1000)} seconds: it is too complex.`,
                ),
              ),
            limits.timeoutMs,
          );
        });
        child.on('error', () => settle(unreadable('The file could not be read.')));
        // 'close', not 'exit': an answer sent just before the process ended is read first.
        child.on('close', (_code, signal) =>
          settle(signal === 'SIGABRT' ? tooMuchMemory() : unreadable('The file could not be read.')),
        );
        child.send(job);
      });
    },
  };
}
export type Extractor = ReturnType<typeof createExtractor>;
