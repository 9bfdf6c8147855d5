const labels: Record<string, string> = { builtin: 'Built-in', openai: 'OpenAI-compatible' };

/** The words a person reads for a bot platform's name. */
export const platformLabel = (platform: string) => labels[platform] ?? platform;
