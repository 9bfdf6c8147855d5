import type { BotRecord } from '../../machines/bots';
import prompts from './examplePrompts.json';

const byCategory: Record<string, string[]> = prompts;

/**
 * A few first messages to try with a bot: a member's bot's starters, else by its first category that has some. They are sent as they
 * are written, untranslated, like the bot's own description: ELIZA and the built-in tools only
 * understand them so.
 */
export function examplePrompts(bot: Pick<BotRecord, 'categories' | 'starters'>): string[] {
  // A member's bot offers the starters its maker wrote.
  if (bot.starters?.length) return bot.starters;
  const category = bot.categories.find((item) => byCategory[item.name]);
  return byCategory[category?.name ?? ''];
}
