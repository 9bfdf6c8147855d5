import type { BotCategory, BotRecord } from '../../machines/bots';

/** Every category any active bot has, sorted by name. */
export function categoriesOf(bots: BotRecord[]): BotCategory[] {
  const byId = new Map<string, BotCategory>();
  for (const bot of bots)
    if (bot.active) for (const category of bot.categories) byId.set(category._id, category);
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}
