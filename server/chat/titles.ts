/** The longest title written for a member (theirs may be longer), the ellipsis included. */
export const titleLength = 60;

/**
 * A title from a text: its first line that says something (without Markdown's heading and quote
 * marks), shortened at a word boundary to at most `titleLength` characters, "…" marking the cut.
 * The conversation's title as soon as its first message is sent, and where no model writes one.
 */
export function shortTitle(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .map((row) => row.replace(/^\s*(?:#{1,6}\s|>\s?)*/, '').trim())
      .find((row) => /[\p{L}\p{N}]/u.test(row)) ?? text.trim().split(/\r?\n/)[0].trim();
  const characters = [...line.replace(/\s+/g, ' ')];
  if (characters.length <= titleLength) return characters.join('');
  const head = characters.slice(0, titleLength - 1).join('');
  // Cut after the last whole word (the head may end with one), unless that leaves too little: one
  // very long word is cut inside.
  const boundary = /[\p{L}\p{N}]/u.test(characters[titleLength - 1]) ? head.lastIndexOf(' ') : head.length;
  const kept = boundary >= titleLength / 3 ? head.slice(0, boundary) : head;
  return `${kept.replace(/[\s,;:.!?\-–—]+$/u, '')}…`;
}

/** A model's answer as a title: its first line, without quotes, a "Title:" label or a full stop. */
export function modelTitle(answer: string): string {
  const line = shortTitle(answer.replace(/^\s*\**\s*title\s*:\s*/i, ''));
  return line
    .replace(/^["'“”‘’«»*]+|["'“”‘’«»*]+$/gu, '')
    .replace(/(?<!\.)\.$/, '')
    .trim();
}
