import type { Db } from '../db/database';
import { reachOf } from '../files/prompt';
import { type ModelRow, toReplyModel, withModel } from '../models/store';

/** A bot as the catalogue lists it, with the groups it is limited to (empty: everyone). */
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
  groups: string[];
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
    groups: string[];
    models: ModelRow[];
  }>(
    `select b.id, b.name, b.description, b.active, b.platform, b.config, b.price,
            json_agg(json_build_object('_id', c.id, 'name', c.name) order by c.name) filter (where c.id is not null) as categories,
            array(select bg.group_id from bot_groups bg where bg.bot_id = b.id) as groups,
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
      active: runnable({ ...bot, config }),
      categories: bot.categories ?? [],
      platform: { name: bot.platform },
      price: Number(first ? first.price : bot.price),
      vision: reachOf(config).vision,
      models: bot.models.map((model) => ({ _id: model.id, name: model.name })),
      groups: bot.groups,
    };
  });
}
