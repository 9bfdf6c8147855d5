import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database';
import { ApiError } from '../errors';

const lifetimeMinutes = 10;
const attempts = 5;
export type CodePurpose = 'signup' | 'reset';

export const invalidCode = () =>
  new ApiError(400, 'The code is wrong or has expired. Ask for a new one.', 'INVALID_CODE', 'otp');

/** One-time codes: 6 digits from a CSPRNG, stored as HMACs, single use, 10 minutes, 5 tries. */
export function createCodes(db: Db, secret: Uint8Array) {
  const hash = (tenant: string, address: string, code: string) =>
    createHmac('sha256', secret).update(`${tenant}\n${address.toLowerCase()}\n${code}`).digest('hex');

  /** The address's codes of this purpose stop working at once (replaced, or a revoked invitation's). */
  const withdraw = async (tenant: string, address: string, purpose: CodePurpose, within: Db = db) => {
    await within.query(
      'update one_time_codes set used = true where tenant = $1 and lower(email) = lower($2) and purpose = $3 and not used',
      [tenant, address, purpose],
    );
  };

  return {
    lifetimeMinutes,

    /** How many codes this address was sent in the last hour. */
    async sentLastHour(tenant: string, address: string, within: Db = db): Promise<number> {
      const { rows } = await within.query<{ count: string }>(
        "select count(*) from one_time_codes where tenant = $1 and lower(email) = lower($2) and created_at > now() - interval '1 hour'",
        [tenant, address],
      );
      return Number(rows[0].count);
    },

    /**
     * A new code for the address, replacing its older ones of the same purpose. Invitations and new
     * owners' codes are given a longer life (`minutes`): their mail may wait a while. Part of
     * `within` when given (an invitation and its code are stored together).
     */
    async issue(
      tenant: string,
      address: string,
      purpose: CodePurpose,
      minutes = lifetimeMinutes,
      within: Db = db,
    ): Promise<string> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await within.transaction(async (tx) => {
        await withdraw(tenant, address, purpose, tx);
        await tx.query(
          `insert into one_time_codes (tenant, email, code_hash, purpose, expires_at)
           values ($1, $2, $3, $4, now() + make_interval(mins => $5))`,
          [tenant, address, hash(tenant, address, code), purpose, Math.round(minutes)],
        );
      });
      return code;
    },

    withdraw,

    /**
     * Checks the code and answers its id, to be claimed with `claim` inside the transaction that uses
     * it. A wrong code counts a try; the fifth burns it.
     */
    async check(tenant: string, address: string, purpose: CodePurpose, given: string): Promise<string> {
      const { rows } = await db.query<{ id: string; code_hash: string; attempts: number; live: boolean }>(
        `select id, code_hash, attempts, expires_at > now() as live from one_time_codes
         where tenant = $1 and lower(email) = lower($2) and purpose = $3 and not used
         order by created_at desc limit 1`,
        [tenant, address, purpose],
      );
      const stored = rows[0];
      if (!stored?.live || stored.attempts >= attempts) throw invalidCode();
      const candidate = Buffer.from(hash(tenant, address, given.trim()), 'hex');
      if (!timingSafeEqual(Buffer.from(stored.code_hash, 'hex'), candidate)) {
        await db.query(
          'update one_time_codes set attempts = attempts + 1, used = attempts + 1 >= $2 where id = $1',
          [stored.id, attempts],
        );
        throw invalidCode();
      }
      return stored.id;
    },

    /** Single use: only one caller can take the code, even when two race. */
    async claim(tx: Db, id: string): Promise<void> {
      const { rows } = await tx.query(
        'update one_time_codes set used = true where id = $1 and not used returning id',
        [id],
      );
      if (!rows.length) throw invalidCode();
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
