import { createHash } from 'node:crypto';
import { ApiError } from '../errors';
import { type Counters, retryIn } from '../security/counters';

const windowSeconds = 15 * 60;

/**
 * Password checks per (account, client address) and per client address, counted in the database
 * *before* the hash runs, so parallel guesses count too and every node sees the same numbers. A
 * stranger's failures never lock the owner out from another address.
 */
export function createLoginLimits(counters: Counters, limits: { perAccount: number; perAddress: number }) {
  const keysOf = (tenant: string, email: string, ip: string) => {
    const account = createHash('sha256')
      .update(`${tenant}\n${email.trim().toLowerCase()}`)
      .digest('base64url');
    return { account: `login:${account}:${ip}`, address: `login-ip:${ip}` };
  };

  return {
    /** Counts one password check; over a limit it is refused with 429 and when to retry. */
    async attempt(tenant: string, email: string, ip: string) {
      const keys = keysOf(tenant, email, ip);
      const counts = await counters.hit([keys.account, keys.address], windowSeconds);
      const over = counts.filter(
        (entry) => entry.count > (entry.key === keys.account ? limits.perAccount : limits.perAddress),
      );
      if (over.length) {
        const wait = Math.max(...over.map((entry) => entry.retryAfter));
        throw new ApiError(429, `Too many failed attempts. Try again ${retryIn(wait)}.`, 'RATE_LIMITED');
      }
      return keys;
    },
    /** The password was right: the account's count starts again, and the address's check is taken back. */
    async succeeded(keys: { account: string; address: string }) {
      await Promise.all([counters.clear(keys.account), counters.takeBack(keys.address)]);
    },
  };
}

export type LoginLimits = ReturnType<typeof createLoginLimits>;
