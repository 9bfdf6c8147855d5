// Readers of a bot's settings (`bots.config`), for every area that runs or shows a bot.

/** The knowledge bases a bot searches (`bots.config.knowledge`). */
export const knowledgeOf = (config: Record<string, unknown>): string[] =>
  Array.isArray(config.knowledge)
    ? config.knowledge.filter((id): id is string => typeof id === 'string')
    : [];

/** The files a member's bot searches for every message (`bots.config.files`): ids of its maker's files. */
export const botFilesOf = (config: Record<string, unknown>): string[] =>
  Array.isArray(config.files) ? config.files.filter((id): id is string => typeof id === 'string') : [];
