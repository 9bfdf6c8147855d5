import type { Db } from '../db/database';

export interface Count {
  key: string;
  count: number;
  /** Seconds until the key's window ends and its count starts again. */
  retryAfter: number;
}

/**
 * Counters in the database, so every node and a restart see the same numbers: each key counts hits
 * over a fixed window that starts with its first hit. One statement counts all the keys atomically.
 */
export function createCounters(db: Db) {
  return {
    async hit(keys: string[], windowSeconds: number): Promise<Count[]> {
      const { rows } = await db.query<{ key: string; count: number; retry_after: number }>(
        `insert into rate_counters (key, count, reset_at)
         select key, 1, now() + make_interval(secs => $2) from unnest($1::text[]) as key order by key
         on conflict (key) do update set
           count = case when rate_counters.reset_at <= now() then 1 else rate_counters.count + 1 end,
           reset_at = case when rate_counters.reset_at <= now() then excluded.reset_at else rate_counters.reset_at end
         returning key, count, ceil(extract(epoch from reset_at - now()))::int as retry_after`,
        [[...keys].sort(), windowSeconds],
      );
      return rows.map((row) => ({
        key: row.key,
        count: row.count,
        retryAfter: Math.max(0, row.retry_after),
      }));
    },

    /** Takes back one hit that turned out not to count (a successful login). */
    async takeBack(key: string): Promise<void> {
      await db.query('update rate_counters set count = greatest(count - 1, 0) where key = $1', [key]);
    },

    async clear(key: string): Promise<void> {
      await db.query('delete from rate_counters where key = $1', [key]);
    },

    async prune(): Promise<void> {
      await db.query("delete from rate_counters where reset_at < now() - interval '1 hour'");
    },
  };
}

export type Counters = ReturnType<typeof createCounters>;

/** "in 3 minutes" or "in 40 seconds": when a limited user may try again. */
export function retryIn(seconds: number): string {
  return seconds >= 90 ? `in ${Math.ceil(seconds / 60)} minutes` : `in ${Math.max(1, seconds)} seconds`;
}
