// Readers of a bot's settings (`bots.config`), for every area that runs or shows a bot.

/** The knowledge bases a bot searches (`bots.config.knowledge`). */
export const knowledgeOf = (config: Record<string, unknown>): string[] =>
  Array.isArray(config.knowledge)
    ? config.knowledge.filter((id): id is string => typeof id === 'string')
    : [];
