import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningServer } from '../../tests/support/server';
import { loadLine, stopwatch, workloadMs } from './stats';
import { firstToken, isParleyToken, newTopics, rssMb, type Setup, send, setUp } from './ttft';

const concurrency = 100;
/** Issue 32's measure: two warm-up bursts, then bursts measured (the CPU clock ticks in hundredths of a second). */
const warmUpBursts = 2;
const bursts = 10;
const ticksPerSecond = 100;

/** The targets of issue 32, printed beside each figure. */
export const targets = {
  cpuShare: 2.5,
  idleRssMb: 200,
};

/** User + system CPU from a /proc stat file, in ms. */
function statCpuMs(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are the 14th and 15th fields; the ones after the command name start at the 3rd.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** User + system CPU of a whole process (every thread: requests and the embedded database), in ms. */
const cpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);

interface ThreadCpu {
  main: number;
  database: number;
  rest: number;
}
/**
 * The same by thread, in ms: the main thread (requests), the embedded database's worker (it names
 * its thread `pglite`), and the rest together (V8's compilers and garbage collector, libuv's pool).
 * Threads that ended since are missing from a later reading: only differences of living ones count.
 */
function threadCpuMs(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      byThread.set(tid, statCpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended
    }
  }
  return byThread;
}
function threadName(pid: number, tid: string): keyof ThreadCpu {
  if (tid === String(pid)) return 'main';
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === 'pglite' ? 'database' : 'rest';
  } catch {
    return 'rest';
  }
}
function threadsSince(pid: number, before: Map<string, number>): ThreadCpu {
  const spent: ThreadCpu = { main: 0, database: 0, rest: 0 };
  for (const [tid, time] of threadCpuMs(pid)) spent[threadName(pid, tid)] += time - (before.get(tid) ?? 0);
  return spent;
}

export interface MemoryFigures {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  databaseHeapUsed: number;
  databaseHeapTotal: number;
  wasm: number;
  other: number;
}

/** Asks the server for its memory figures (SIGUSR2; it logs them at level info). */
export async function memoryOf(server: RunningServer): Promise<MemoryFigures> {
  const before = server.output().length;
  process.kill(server.pid, 'SIGUSR2');
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const line = server
      .output()
      .slice(before)
      .split('\n')
      .find((text) => text.includes('"msg":"memory"'));
    if (line) return JSON.parse(line).memory;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the server logged no memory figures (is LOG_LEVEL info?)');
}

export const memoryLine = (memory: MemoryFigures) =>
  `RSS ${memory.rss} MB = V8 heap ${memory.heapTotal} MB (used ${memory.heapUsed}) + database thread's V8 heap ${memory.databaseHeapTotal} MB (used ${memory.databaseHeapUsed}) + PGlite WebAssembly memory ${memory.wasm} MB (its size: only pages PostgreSQL touched are resident, so other is a lower bound) + other ${memory.other} MB (external ${memory.external} MB, of it array buffers ${memory.arrayBuffers} MB)`;

/**
 * One burst as issue 32 measures it: `concurrency` ELIZA replies at once, each the first message of
 * a new conversation. The conversations are made first, and `during` brackets the replies alone.
 */
async function burst(setup: Setup, during: { before?: () => void; after?: () => void } = {}) {
  setup.topics = await newTopics(setup);
  during.before?.();
  const times = await Promise.all(
    Array.from({ length: concurrency }, (_, index) =>
      firstToken(() => send(setup, index, 'I am sad.'), isParleyToken),
    ),
  );
  during.after?.();
  return times;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMap | null>();
/** A place in the compiled server, as its source file and line (the build has source maps). */
function place(url: string, line: number, column: number): string {
  if (!url) return '(native)';
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  if (!maps.has(path)) {
    const map = `${path}.map`;
    maps.set(path, existsSync(map) ? new SourceMap(JSON.parse(readFileSync(map, 'utf8'))) : null);
  }
  const entry = maps.get(path)?.findEntry(line, column) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  if (entry?.originalSource) {
    const source = entry.originalSource.startsWith('file:')
      ? fileURLToPath(entry.originalSource)
      : join(path, '..', entry.originalSource);
    return `${relative(process.cwd(), source)}:${(entry.originalLine ?? 0) + 1}`;
  }
  return `${path.startsWith('/') ? relative(process.cwd(), path) : path}:${line + 1}`;
}

/**
 * Self time by function over the given windows (µs of the monotonic clock, as V8's profiles stamp
 * their samples), from every thread's profile in `folder`.
 */
function selfTimes(folder: string, windows: [number, number][]) {
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byThread = new Map<string, number>();
  let total = 0;
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.cpuprofile'))) {
    const profile: Profile = JSON.parse(readFileSync(join(folder, name), 'utf8'));
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile: thread 0 is the main one.
    const main = name.split('.')[4] === '0';
    let time = profile.startTime;
    let threadTotal = 0;
    for (let index = 0; index < profile.samples.length; index += 1) {
      time += profile.timeDeltas[index];
      // A sample stands for the time until the next one.
      const spent = profile.timeDeltas[index + 1] ?? 0;
      if (!windows.some(([from, to]) => time >= from && time <= to)) continue;
      const frame = nodes.get(profile.samples[index])?.callFrame;
      if (!frame || frame.functionName === '(idle)') continue;
      const where = place(frame.url, frame.lineNumber, frame.columnNumber);
      const thread = main ? '[requests]' : '[database]';
      const key = `${thread} ${frame.functionName || '(anonymous)'} ${where}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + spent);
      const file = `${thread} ${fileOf(where, frame.functionName)}`;
      byFile.set(file, (byFile.get(file) ?? 0) + spent);
      threadTotal += spent;
    }
    const thread = main ? 'requests (main thread)' : 'embedded database (worker)';
    byThread.set(thread, (byThread.get(thread) ?? 0) + threadTotal);
    total += threadTotal;
  }
  return { byFunction, byFile, byThread, total };
}

/**
 * What a place belongs to: a package (node_modules/<name>), one of our source files, node's own
 * JavaScript (node:…), or V8's native work named by its function ((garbage collector), (program)).
 */
function fileOf(where: string, functionName: string): string {
  if (where === '(native)') return functionName || '(native)';
  const inPackage = where.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1];
  if (where.startsWith('node:')) return where.replace(/:\d+$/, '');
  return where.replace(/:\d+$/, '');
}

/**
 * The server's own CPU per reply, as issue 32 measures it: the compiled server (as `npm start` runs
 * it) in its own process, ELIZA with no pause between words so that nothing but the server's work is
 * timed, bursts of 100 replies at once (each the first message of a new conversation) after two
 * warm-up bursts; user + system CPU of the whole process from /proc, divided by the replies, and by
 * thread. Printed as ms and as a share of the fixed workload (stats.ts) run by this process at the same
 * moment, as machines vary threefold from day to day. Then where it goes: the same on a server started
 * with --cpu-prof (both threads), its samples taken during the bursts only, top functions and files by
 * self time. Also the idle memory right after start.
 */
export async function printServerCostFigures(): Promise<void> {
  const env = { BUILTIN_TOKEN_DELAY_MS: '0' };
  let idle: MemoryFigures | undefined;
  const plain = await setUp(env, 'ELIZA', { compiled: true }, async (server) => {
    idle = await memoryOf(server);
  });
  console.log(
    `## The server process: memory and CPU per reply (compiled server, PGlite, log level info; ${loadLine()})`,
  );
  try {
    if (idle)
      console.log(
        `idle RSS ${idle.rss} MB (target ≤ ${targets.idleRssMb} MB) after start with the demo data: ${memoryLine(idle)}`,
      );
    const workloadBefore = workloadMs();
    for (let round = 0; round < warmUpBursts; round += 1) await burst(plain);
    const perBurst: number[] = [];
    const threads: ThreadCpu = { main: 0, database: 0, rest: 0 };
    for (let round = 0; round < bursts; round += 1) {
      let before = 0;
      let threadsBefore = new Map<string, number>();
      await burst(plain, {
        before: () => {
          threadsBefore = threadCpuMs(plain.server.pid);
          before = cpuMs(plain.server.pid);
        },
        after: () => {
          perBurst.push((cpuMs(plain.server.pid) - before) / concurrency);
          const spent = threadsSince(plain.server.pid, threadsBefore);
          for (const name of ['main', 'database', 'rest'] as const) threads[name] += spent[name];
        },
      });
    }
    const workloadAfter = workloadMs();
    const workload = Math.min(workloadBefore, workloadAfter);
    const replies = bursts * concurrency;
    const perReply = perBurst.reduce((sum, value) => sum + value, 0) / bursts;
    const share = (time: number) => `${((100 * time) / workload).toFixed(2)} %`;
    const thread = (name: keyof ThreadCpu) =>
      `${(threads[name] / replies).toFixed(2)} ms (${share(threads[name] / replies)})`;
    console.log(
      `fixed workload (issue 32: 2,000 items, 60 rounds of stringify, parse and SHA-256; least CPU of 3 after a warm-up): ${workloadBefore.toFixed(0)} ms before the bursts, ${workloadAfter.toFixed(0)} ms after; ${workload.toFixed(0)} ms is 100 %`,
    );
    console.log(
      `CPU per reply (${bursts} bursts of ${concurrency} simultaneous ELIZA replies, each the first message of a new conversation, after ${warmUpBursts} warm-up bursts; user + system of the server process): ${perReply.toFixed(2)} ms = ${share(perReply)} of the workload (target ≤ ${targets.cpuShare} %); bursts from ${Math.min(...perBurst).toFixed(2)} to ${Math.max(...perBurst).toFixed(2)} ms`,
    );
    console.log(
      `  by thread: main (requests) ${thread('main')}, PGlite worker ${thread('database')}, rest (V8's compilers and GC, libuv) ${thread('rest')}`,
    );
    console.log(
      `after the bursts: ${memoryLine(await memoryOf(plain.server))}; RSS from /proc ${rssMb(plain.server.pid).toFixed(0)} MB`,
    );
  } finally {
    await plain.server.stop();
  }

  const folder = mkdtempSync(join(tmpdir(), 'parley-profile-'));
  const profiled = await setUp(env, 'ELIZA', {
    compiled: true,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${folder}`],
  });
  const windows: [number, number][] = [];
  try {
    for (let round = 0; round < warmUpBursts; round += 1) await burst(profiled);
    for (let round = 0; round < bursts; round += 1) {
      let from = 0;
      await burst(profiled, {
        before: () => {
          from = stopwatch();
        },
        after: () => windows.push([from, stopwatch()]),
      });
    }
  } finally {
    // The profiles are written as the process exits.
    await profiled.server.stop();
  }
  const { byFunction, byFile, byThread, total } = selfTimes(folder, windows);
  if (process.env.KEEP_PROFILES) console.log(`profiles kept in ${folder}`);
  else rmSync(folder, { recursive: true, force: true });
  const replies = bursts * concurrency;
  const top = (entries: Map<string, number>, count: number) => {
    for (const [name, time] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(
        `  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${(time / 1000 / replies).toFixed(3)} ms/reply  ${name}`,
      );
    }
  };
  console.log(
    `where it goes (--cpu-prof, ${replies} replies; sampled on-CPU time ${(total / 1000 / replies).toFixed(2)} ms a reply; by thread: ${[
      ...byThread,
    ]
      .map(([thread, time]) => `${thread} ${((100 * time) / total).toFixed(0)}%`)
      .join(', ')}), top functions by self time:`,
  );
  top(byFunction, 15);
  console.log('top packages and files by self time:');
  top(byFile, 15);
}
