/** The p-th percentile (0–100) of some numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Now on the monotonic clock, in µs: the clock V8 stamps a CPU profile's samples with. */
export const stopwatch = () => Number(process.hrtime.bigint() / 1000n);
