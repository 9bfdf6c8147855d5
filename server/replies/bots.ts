import type { FastifyInstance } from 'fastify';
import { canRun } from '../bots/availability';
import type { Provider } from '../providers/types';

/** Why a bot cannot answer now: each caller says it in its own words (the chat's, OpenAI's). */
export type Refusal = 'not_allowed' | 'shutting_down' | 'unavailable';

/**
 * Whether `bot` can answer the member now, on this node: their groups allow it (`may_use`, read with
 * the bot), the node is not draining for shutdown, and its engine can run here. Asked once, before
 * anything is reserved.
 */
export function runnable(
  app: FastifyInstance,
  bot: { active: boolean; platform: string; config: Record<string, unknown>; may_use: boolean },
): { provider: Provider; refused?: never } | { refused: Refusal } {
  if (!bot.may_use) return { refused: 'not_allowed' };
  if (!app.liveReplies.accepting) return { refused: 'shutting_down' };
  const provider = app.botProviders[bot.platform];
  if (!provider || !canRun(app.config, bot)) return { refused: 'unavailable' };
  return { provider };
}
