import type { Config } from '../config';

/**
 * Whether a bot can answer on this node: decided per request from the provider configuration,
 * never written into the shared database (a node without a model server must not switch off the
 * model bots of the whole cluster).
 */
export function canRun(
  config: Config,
  bot: { active: boolean; platform: string; config: Record<string, unknown> },
) {
  if (!bot.active) return false;
  if (bot.platform === 'builtin') return true;
  // An organization's own provider (admin area), a base URL of its own, or the server's.
  if (bot.platform === 'openai')
    return Boolean(bot.config.provider || bot.config.baseUrl || config.openai.baseUrl);
  return false;
}
