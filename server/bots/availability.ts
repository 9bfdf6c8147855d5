import type { Config } from '../config';

/**
 * Whether a bot can answer on this node: decided per request from the provider configuration,
 * never written into the shared database (a node without a model server must not switch off the
 * model bots of the whole cluster).
 */
/** A bot as `canRun` reads it. */
export interface RunnableBot {
  active: boolean;
  platform: string;
  config: Record<string, unknown>;
  /** Where its default catalogue model runs: a provider's id, '' the server's own; none: null or absent. */
  model_provider?: string | null;
}

export function canRun(config: Config, bot: RunnableBot) {
  if (!bot.active) return false;
  // An image bot draws with the organization's image settings, read as it answers.
  if (bot.platform === 'builtin' || bot.platform === 'image') return true;
  if (bot.platform !== 'openai') return false;
  // A catalogue model runs on the organization's provider or the server's.
  if (typeof bot.model_provider === 'string') return Boolean(bot.model_provider || config.openai.baseUrl);
  // An organization's own provider (admin area), a base URL of its own, or the server's.
  return Boolean(bot.config.provider || bot.config.baseUrl || config.openai.baseUrl);
}
