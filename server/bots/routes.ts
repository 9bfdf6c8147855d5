import type { FastifyPluginAsync } from 'fastify';
import { groupsOfMember } from '../access/groups';
import { reachOf } from '../files/prompt';
import { canRun } from './availability';

/** A bot of the catalogue with the groups it is limited to (empty: everyone), which never leave the server. */
interface CatalogueBot {
  groups: string[];
  [field: string]: unknown;
}

/**
 * `GET /api/v1/bot`: the organization's bots with their categories and platform, those the user may
 * use: bots limited to groups only for those groups' members.
 */
export const botsPlugin: FastifyPluginAsync = async (app) => {
  async function catalogue(tenant: string): Promise<CatalogueBot[]> {
    // Kept per organization briefly; an admin's edit forgets it on every node (./catalogue.ts).
    const cached = app.botCatalogue.get(tenant);
    if (cached) return cached as CatalogueBot[];
    const { rows } = await app.db.query<{
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
    const bots = rows.map((bot) => ({
      _id: bot.id,
      name: bot.name,
      description: bot.description,
      active: canRun(app.config, bot),
      categories: bot.categories ?? [],
      platform: { name: bot.platform },
      price: Number(bot.price),
      // Whether the bot can be sent images (a model bot an admin marked so).
      vision: reachOf(bot.config).vision,
      groups: bot.groups,
    }));
    app.botCatalogue.set(tenant, bots);
    return bots;
  }

  app.get('/api/v1/bot', { preHandler: app.authenticate }, async (request) => {
    const [bots, mine] = await Promise.all([
      catalogue(request.tenant),
      groupsOfMember(app.db, request.tenant, request.auth.userId),
    ]);
    return bots
      .filter((bot) => !bot.groups.length || bot.groups.some((group) => mine.includes(group)))
      .map(({ groups: _limited, ...bot }) => bot);
  });
};
