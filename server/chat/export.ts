import { branchOnScreen, type TopicRecord } from './topics';

const statusNotes: Record<string, string> = {
  streaming: 'still being written',
  stopped: 'stopped',
  interrupted: 'interrupted',
  failed: 'failed',
};

/** The conversation as Markdown: every message of the branch on screen, both sides, who said it and when. */
export function topicMarkdown(topic: TopicRecord): string {
  const title = topic.title || `Conversation with ${topic.bot.name}`;
  const lines = [`# ${title}`, '', `*${topic.bot.name} · ${topic.createdAt}*`, ''];
  for (const message of branchOnScreen(topic)) {
    const who = message.role === 'user' ? 'You' : topic.bot.name;
    const note = statusNotes[message.status] ? ` *(${statusNotes[message.status]})*` : '';
    lines.push(`## ${who} · ${message.createdAt}${note}`, '', message.text, '');
    const files = (message.files ?? []).map((file) => `${file.name}${file.removed ? ' (removed)' : ''}`);
    if (files.length) lines.push(`*Attached: ${files.join(', ')}*`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A file name for the download: the title's words, or the bot's name. */
export function exportFileName(topic: TopicRecord, extension: string): string {
  const base = (topic.title || topic.bot.name)
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `${base || 'conversation'}.${extension}`;
}
