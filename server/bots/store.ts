import type { Db } from '../db/database';
import { reachOf } from '../files/prompt';

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
  }>(
    `select b.id, b.name, b.description, b.active, b.platform, b.config, b.price,
            json_agg(json_build_object('_id', c.id, 'name', c.name) order by c.name) filter (where c.id is not null) as categories,
            array(select bg.group_id from bot_groups bg where bg.bot_id = b.id) as groups
     from bots b
     left join bot_categories bc on bc.bot_id = b.id
     left join categories c on c.id = bc.category_id
     where b.tenant = $1
     group by b.id
     order by b.position, b.name`,
    [tenant],
  );
  return rows.map((bot) => ({
    _id: bot.id,
    name: bot.name,
    description: bot.description,
    active: runnable(bot),
    categories: bot.categories ?? [],
    platform: { name: bot.platform },
    price: Number(bot.price),
    vision: reachOf(bot.config).vision,
    groups: bot.groups,
  }));
}
