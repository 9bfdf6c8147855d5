import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningServer } from '../../tests/support/server';
import { stopwatch } from './stats';
import { firstToken, isParleyToken, rssMb, type Setup, send, setUp } from './ttft';

const concurrency = 100;
const warmUpBursts = 3;
/** Bursts measured: the CPU clock ticks in hundredths of a second, so a thousand replies. */
const bursts = 10;
const ticksPerSecond = 100;

/** User + system CPU from a /proc stat file, in ms. */
function statCpuMs(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are the 14th and 15th fields; the ones after the command name start at the 3rd.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** User + system CPU of a whole process (every thread: requests and the embedded database), in ms. */
const cpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);

/**
 * The same by thread, in ms: the main thread (requests), the embedded database's worker (its thread
 * is the one started after the main one with a thread id of its own that runs JavaScript, named
 * after node's workers), and the rest together (V8's compilers and garbage collector, libuv's pool).
 */
function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name =
        tid === String(pid)
          ? 'main'
          : `${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}#${tid}`;
      byName.set(name, (byName.get(name) ?? 0) + statCpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended
    }
  }
  return byName;
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

/** One burst: `concurrency` ELIZA replies at once; answers the first-token times. */
const burst = (setup: Setup) =>
  Promise.all(
    Array.from({ length: concurrency }, (_, index) =>
      firstToken(() => send(setup, index, 'I am sad.'), isParleyToken),
    ),
  );

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
      const key = `${main ? '[requests]' : '[database]'} ${frame.functionName || '(anonymous)'} ${place(frame.url, frame.lineNumber, frame.columnNumber)}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + spent);
      threadTotal += spent;
    }
    const thread = main ? 'requests (main thread)' : 'embedded database (worker)';
    byThread.set(thread, (byThread.get(thread) ?? 0) + threadTotal);
    total += threadTotal;
  }
  return { byFunction, byThread, total };
}

/**
 * The server's own CPU per reply: the compiled server (as `npm start` runs it) in its own process,
 * ELIZA with no pause between words so that nothing but the server's work is timed, bursts of 100
 * replies at once after a warm-up; user + system CPU of the whole process from /proc, divided by
 * the replies. Then where it goes: the same on a server started with --cpu-prof, its samples taken
 * during the bursts only, top functions by self time. Also the idle memory right after start.
 */
export async function printServerCostFigures(): Promise<void> {
  const env = { BUILTIN_TOKEN_DELAY_MS: '0' };
  let idle: MemoryFigures | undefined;
  const plain = await setUp(env, 'ELIZA', { compiled: true }, async (server) => {
    idle = await memoryOf(server);
  });
  console.log('## The server process: memory and CPU per reply (compiled server, PGlite, log level info)');
  try {
    if (idle) console.log(`idle after start with the demo data: ${memoryLine(idle)}`);
    for (let round = 0; round < warmUpBursts; round += 1) await burst(plain);
    const perBurst: number[] = [];
    const threadsBefore = threadCpuMs(plain.server.pid);
    for (let round = 0; round < bursts; round += 1) {
      const before = cpuMs(plain.server.pid);
      await burst(plain);
      perBurst.push((cpuMs(plain.server.pid) - before) / concurrency);
    }
    const threads = [...threadCpuMs(plain.server.pid)]
      .map(
        ([name, time]) => [name, (time - (threadsBefore.get(name) ?? 0)) / (bursts * concurrency)] as const,
      )
      .filter(([, time]) => time > 0)
      .sort((a, b) => b[1] - a[1]);
    const total = perBurst.reduce((sum, value) => sum + value, 0);
    console.log(
      `CPU per reply (${bursts} bursts of ${concurrency} simultaneous ELIZA replies, user + system of the server process): ${(total / bursts).toFixed(2)} ms (bursts from ${Math.min(...perBurst).toFixed(2)} to ${Math.max(...perBurst).toFixed(2)} ms); by thread: ${threads.map(([name, time]) => `${name} ${time.toFixed(2)}`).join(', ')} ms`,
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
      const from = stopwatch();
      await burst(profiled);
      windows.push([from, stopwatch()]);
    }
  } finally {
    // The profiles are written as the process exits.
    await profiled.server.stop();
  }
  const { byFunction, byThread, total } = selfTimes(folder, windows);
  rmSync(folder, { recursive: true, force: true });
  const replies = bursts * concurrency;
  console.log(
    `where it goes (--cpu-prof, ${replies} replies; sampled on-CPU time ${(total / 1000 / replies).toFixed(2)} ms a reply; by thread: ${[
      ...byThread,
    ]
      .map(([thread, time]) => `${thread} ${((100 * time) / total).toFixed(0)}%`)
      .join(', ')}), top functions by self time:`,
  );
  for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    console.log(
      `  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${(time / 1000 / replies).toFixed(3)} ms/reply  ${name}`,
    );
  }
}
