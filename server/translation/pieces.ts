/** A stretch of a text to translate: sent to the provider, or kept as it is (code, the space between). */
export interface Piece {
  text: string;
  translate: boolean;
}

/** Fenced code blocks (``` or ~~~, to their closing fence or the end): kept, never translated. */
const fences = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\1[`~]*[ \t]*(?=\n|(?![\s\S]))|(?![\s\S]))/gm;

/** Where a text may be cut, coarsest first: after a blank line, a line, a sentence, a space. */
const cuts = [/(?<=\n[ \t]*\n)/, /(?<=\n)/, /(?<=[.!?。！？][)"'’”»]*[ \t]+)/u, /(?<=\s)/];

/** Cuts `text` into consecutive parts of at most `limit` characters, at the coarsest cuts that do. */
function pack(text: string, limit: number, level = 0): string[] {
  if (text.length <= limit) return [text];
  if (level === cuts.length) {
    // One word longer than the limit: cut by characters, never inside a surrogate pair.
    const parts = [''];
    for (const character of text) {
      if (parts[parts.length - 1].length + character.length > limit) parts.push('');
      parts[parts.length - 1] += character;
    }
    return parts;
  }
  const parts: string[] = [];
  let current = '';
  for (const unit of text.split(cuts[level])) {
    if (current && current.length + unit.length > limit) {
      parts.push(current);
      current = '';
    }
    if (unit.length > limit) parts.push(...pack(unit, limit, level + 1));
    else current += unit;
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * A text as pieces of at most `limit` characters to translate one by one, cut between paragraphs,
 * else lines, sentences or words, with fenced code blocks and the white space around each piece
 * kept as they are: the pieces joined again are exactly the text.
 */
export function piecesOf(text: string, limit: number): Piece[] {
  const pieces: Piece[] = [];
  const keep = (kept: string) => {
    if (!kept) return;
    const last = pieces.at(-1);
    if (last && !last.translate) last.text += kept;
    else pieces.push({ text: kept, translate: false });
  };
  const prose = (part: string) => {
    for (const chunk of pack(part, limit)) {
      const [, before, words, after] = /^(\s*)([\s\S]*?)(\s*)$/.exec(chunk) ?? ['', '', chunk, ''];
      keep(before);
      if (words) pieces.push({ text: words, translate: true });
      keep(after);
    }
  };
  let at = 0;
  for (const fence of text.matchAll(fences)) {
    prose(text.slice(at, fence.index));
    keep(fence[0]);
    at = fence.index + fence[0].length;
  }
  prose(text.slice(at));
  return pieces;
}
