import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';

/** The p-th percentile (0–100) of some numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Now on the monotonic clock, in µs: the clock V8 stamps a CPU profile's samples with. */
export const stopwatch = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Issue 32's fixed workload, a yardstick for CPU figures on machines whose speed varies threefold
 * from day to day: an object of 2,000 items, 60 rounds of JSON.stringify, JSON.parse and a SHA-256
 * update over the string. The least process CPU (user + system) of three runs after one warm-up, in ms.
 */
export function workloadMs(): number {
  const items = Array.from({ length: 2000 }, (_, i) => ({
    id: `id-${i}`,
    text: 'lorem ipsum dolor sit amet '.repeat(4),
    n: i,
    ok: i % 2 === 0,
  }));
  const run = () => {
    const before = process.cpuUsage();
    const hash = createHash('sha256');
    for (let round = 0; round < 60; round += 1) {
      const text = JSON.stringify(items);
      JSON.parse(text);
      hash.update(text);
    }
    hash.digest();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  run();
  return Math.min(run(), run(), run());
}

/** The load average over the last minute, and the cores it is shared by: figures under load are inflated. */
export const loadLine = () => `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
