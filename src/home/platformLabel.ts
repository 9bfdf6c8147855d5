const labels: Record<string, string> = {
  builtin: 'Built-in',
  openai: 'OpenAI-compatible',
  // Members' own bots (machines/bots.ts `groupCatalogue`).
  mine: 'Mine',
  members: 'Made by members',
};

/** The words a person reads for a catalogue group: a bot platform's name, or members' own bots. */
export const platformLabel = (platform: string) => labels[platform] ?? platform;
