import { mayUseBot, seesBot } from '../access/groups';
import type { Db } from '../db/database';
import { reachOf } from '../files/prompt';
import { type ModelRow, toReplyModel, withModel } from '../models/store';
import type { Owner } from '../owner';

/** A bot as the catalogue lists it; `owner` for a member's bot. */
export interface CatalogueBot {
  _id: string;
  name: string;
  description: string;
  active: boolean;
  categories: { _id: string; name: string }[];
  platform: { name: string };
  price: number;
  /** Whether the bot can be sent images (a model bot an admin marked so). */
  vision: boolean;
  /** The catalogue models it offers, its default first (none: it runs its own settings). */
  models: { _id: string; name: string }[];
  /** Who made it, for a member's bot. */
  owner?: { _id: string; name: string };
  /** A member's bot's starter prompts, offered in a new conversation. */
  starters?: string[];
  /** Members may set a conversation's temperature and reply length. */
  userParameters: boolean;
  /** `web_search` is among its tools: it searches the web without being asked to ("Search the web"). */
  webSearch?: true;
}

/** The organization's bots in their order, `active` when `runnable` says the bot can answer. */
export async function readCatalogue(
  db: Db,
  tenant: string,
  runnable: (bot: { active: boolean; platform: string; config: Record<string, unknown> }) => boolean,
): Promise<CatalogueBot[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    description: string;
    active: boolean;
    platform: string;
    config: Record<string, unknown>;
    price: string;
    categories: { _id: string; name: string }[] | null;
    models: ModelRow[];
    retired: boolean;
    owner_id: string | null;
    owner_name: string | null;
    user_parameters: boolean;
  }>(
    `select b.id, b.name, b.description, b.active, b.platform, b.config, b.price, b.retired, b.user_parameters,
            b.owner_id, (select u.display_name from users u where u.id = b.owner_id) as owner_name,
            json_agg(json_build_object('_id', c.id, 'name', c.name) order by c.name) filter (where c.id is not null) as categories,
            coalesce((select json_agg(m order by bm.position)
                      from bot_models bm join models m on m.id = bm.model_id where bm.bot_id = b.id), '[]') as models
     from bots b
     left join bot_categories bc on bc.bot_id = b.id
     left join categories c on c.id = bc.category_id
     where b.tenant = $1
     group by b.id
     order by b.position, b.name`,
    [tenant],
  );
  return rows.map((bot) => {
    // A bot with catalogue models runs (and is priced) on its default one until a conversation picks another.
    const first = bot.models[0];
    const config = withModel(bot.config, first ? toReplyModel(first) : null);
    return {
      _id: bot.id,
      name: bot.name,
      description: bot.description,
      // A retired member bot is listed to those who had it, for their conversations: it answers no more.
      active: !bot.retired && runnable({ ...bot, config }),
      categories: bot.categories ?? [],
      platform: { name: bot.platform },
      price: Number(first ? first.price : bot.price),
      vision: reachOf(config).vision,
      models: bot.models.map((model) => ({ _id: model.id, name: model.name })),
      userParameters: bot.user_parameters,
      ...(bot.owner_id ? { owner: { _id: bot.owner_id, name: bot.owner_name ?? '' } } : {}),
      ...(Array.isArray(bot.config.tools) && bot.config.tools.includes('web_search')
        ? { webSearch: true as const }
        : {}),
      ...(Array.isArray(bot.config.starters) && bot.config.starters.length
        ? { starters: bot.config.starters as string[] }
        : {}),
    };
  });
}

/**
 * The ids of the organization's bots the member is listed: those they may use, and members' bots
 * they had that were retired since (listed inactive: their conversations still name them).
 */
export async function listedFor(db: Db, owner: Owner): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `select b.id from bots b where b.tenant = $1
       and (${mayUseBot('b.id', '$2')} or b.retired and b.deleted_at is null and ${seesBot('b', '$2')})`,
    [owner.tenant, owner.userId],
  );
  return new Set(rows.map((row) => row.id));
}
