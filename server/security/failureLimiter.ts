/** Counts failures per key in a sliding window: too many, and the key waits until the oldest expires. */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((time) => now - time < this.windowMs);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  /** Milliseconds until any of the keys may try again; 0 when none is blocked. */
  blockedFor(keys: string[], now = Date.now()): number {
    let wait = 0;
    for (const key of keys) {
      const times = this.recent(key, now);
      if (times.length >= this.limit) wait = Math.max(wait, times[0] + this.windowMs - now);
    }
    return wait;
  }

  record(keys: string[], now = Date.now()) {
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
  }

  clear(key: string) {
    this.failures.delete(key);
  }
}
