import type { FastifyPluginAsync } from 'fastify';
import { reachOf } from '../files/prompt';
import { canRun } from './availability';

/** `GET /api/v1/bot`: the organization's bots with their categories and platform. */
export const botsPlugin: FastifyPluginAsync = async (app) => {
  app.get('/api/v1/bot', { preHandler: app.authenticate }, async (request) => {
    // Kept per organization briefly; an admin's edit forgets it on every node (./catalogue.ts).
    const cached = app.botCatalogue.get(request.tenant);
    if (cached) return cached;
    const { rows } = await app.db.query<{
      id: string;
      name: string;
      description: string;
      active: boolean;
      platform: string;
      config: Record<string, unknown>;
      price: string;
      categories: { _id: string; name: string }[] | null;
    }>(
      `select b.id, b.name, b.description, b.active, b.platform, b.config, b.price,
              json_agg(json_build_object('_id', c.id, 'name', c.name) order by c.name) filter (where c.id is not null) as categories
       from bots b
       left join bot_categories bc on bc.bot_id = b.id
       left join categories c on c.id = bc.category_id
       where b.tenant = $1
       group by b.id
       order by b.position, b.name`,
      [request.tenant],
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
    }));
    app.botCatalogue.set(request.tenant, bots);
    return bots;
  });
};
