import type { Db } from '../db/database';
import { type SpeechSettings, speechOf } from './settings';

/** The voice settings of the request's organization (never another's). */
export async function readSpeech(db: Db, tenant: string): Promise<SpeechSettings> {
  const { rows } = await db.query<{ speech: Record<string, unknown> | null }>(
    'select speech from organizations where subdomain = $1',
    [tenant],
  );
  return speechOf(rows[0]?.speech ?? null);
}
