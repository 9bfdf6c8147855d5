import type { Db } from '../../db/database';

/** The newest reasons shown per bot and model. */
export const reasonsShown = 20;

interface Row {
  bot_id: string | null;
  bot_name: string | null;
  model_id: string | null;
  model_name: string | null;
  up: string;
  down: string;
  reasons: { text: string; rating: 'up' | 'down'; at: string }[];
}

/**
 * The organization's thumbs per bot and model: how many up and down, and the newest reasons given
 * (never the conversation or who). `bot` is null for a bot deleted since (a member's); `model` is null
 * for the bot's own model (no catalogue model) or a catalogue model removed since.
 */
export async function feedbackFigures(db: Db, tenant: string) {
  const { rows } = await db.query<Row>(
    `select f.bot_id, b.name as bot_name, f.model_id, m.name as model_name,
            count(*) filter (where f.rating = 'up') as up, count(*) filter (where f.rating = 'down') as down,
            coalesce((
              select json_agg(json_build_object('text', r.reason, 'rating', r.rating, 'at', r.updated_at) order by r.updated_at desc)
              from (select reason, rating, updated_at from feedback r
                    where r.tenant = $1 and r.reason <> ''
                      and r.bot_id is not distinct from f.bot_id and r.model_id is not distinct from f.model_id
                    order by r.updated_at desc limit ${reasonsShown}) r), '[]') as reasons
     from feedback f
       left join bots b on b.id = f.bot_id and b.tenant = f.tenant
       left join models m on m.id = f.model_id and m.tenant = f.tenant
     where f.tenant = $1
     group by f.bot_id, b.name, f.model_id, m.name
     order by lower(b.name) nulls last, f.bot_id, lower(m.name) nulls first, f.model_id`,
    [tenant],
  );
  return rows.map((row) => ({
    bot: row.bot_id && row.bot_name !== null ? { _id: row.bot_id, name: row.bot_name } : null,
    model: row.model_id && row.model_name !== null ? { _id: row.model_id, name: row.model_name } : null,
    up: Number(row.up),
    down: Number(row.down),
    reasons: row.reasons.map((reason) => ({
      text: reason.text,
      rating: reason.rating,
      at: new Date(reason.at).toISOString(),
    })),
  }));
}
