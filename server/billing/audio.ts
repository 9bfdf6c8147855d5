import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import type { Owner } from '../owner';
import { audioReservations, hold, refusal, release, releaseOrphans, settle } from './reservations';

// Money of voice: a transcription or a speech is priced per minute of audio (0: free). Its price is
// held before the provider is called, exactly as a reply's (balance and the groups' monthly budget,
// in one UPDATE of the member's row), then settled for the minutes measured, never more than it
// held, or released when the provider fails.

export type AudioKind = 'transcription' | 'speech';

/** The price of `seconds` of audio at `perMinute`, to four decimals (the columns' scale), rounded up. */
export function audioPrice(perMinute: number, seconds: number): number {
  const units = Math.round(perMinute * 10_000);
  // Hundredths of a second, rounded up past float noise (0.8 × 100 is 80.00000000000001).
  const hundredths = Math.ceil(Number((seconds * 100).toFixed(6)));
  return Math.ceil((units * hundredths) / 6_000) / 10_000;
}

/**
 * Holds `price` for one audio call of the member, for at most `seconds` (its lease: past it, a call
 * whose node is gone is released by `interruptAudio`). Answers its id, or throws the chat's 402
 * (INSUFFICIENT_BALANCE or BUDGET_REACHED).
 */
export async function reserveAudio(
  db: Db,
  owner: Owner,
  call: { kind: AudioKind; price: number; seconds: number },
): Promise<string> {
  const { rows } = await db.query<{ id: string | null }>(
    `with hold as (${hold}),
     started as (
       insert into audio_calls (id, tenant, user_id, kind, status, reserved, lease_until)
       select $1, $3, $2, $5, 'streaming', $4, now() + make_interval(secs => $6) from hold returning id)
     select (select id from started) as id`,
    [randomUUID(), owner.userId, owner.tenant, call.price, call.kind, call.seconds],
  );
  if (!rows[0]?.id) throw await refusal(db, owner, call.price);
  return rows[0].id;
}

/** The call is done: charged `charge` (at most what it held) for `seconds` of audio. */
export const settleAudio = (
  db: Db,
  owner: Owner,
  call: { id: string; kind: AudioKind; charge: number; seconds: number },
) =>
  settle(db, owner, audioReservations, {
    id: call.id,
    description: call.kind === 'transcription' ? 'Transcription' : 'Read aloud',
    free: call.charge === 0,
    set: { seconds: Math.round(call.seconds * 100) / 100 },
    charge: call.charge,
  });

/** The provider failed or refused: nothing charged. */
export const releaseAudio = (db: Db, owner: Owner, id: string) =>
  release(db, owner, audioReservations, { id, status: 'failed', set: {} });

/** Audio calls whose node is gone, released (`reservations` `releaseOrphans`). */
export const interruptAudio = (db: Db, all = false, mine: string[] = []) =>
  releaseOrphans(db, audioReservations, all, mine);
