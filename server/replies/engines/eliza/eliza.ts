import {
  type Decomposition,
  greeting,
  keywords,
  postSubstitutions,
  preSubstitutions,
  synonyms,
} from './script';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `* i am* @sad *` → a regex with one group per `*` and per `@group`, in order. */
function compile(pattern: string): RegExp {
  const source = pattern
    .replace(/^\$\s*/, '')
    .split(/(\*|@\w+|\s+)/)
    .filter((piece) => piece !== '')
    .map((piece, index, pieces) => {
      if (piece === '*') return index === pieces.length - 1 ? '(.*)' : '(.*?)';
      if (piece.startsWith('@'))
        return `\\b(${(synonyms[piece.slice(1)] ?? [piece.slice(1)]).map(escapeRegExp).join('|')})\\b`;
      if (/^\s+$/.test(piece)) return '\\s*';
      return `\\b${escapeRegExp(piece)}\\b`;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

const substitute = (text: string, table: Record<string, string>) =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => table[word] ?? word)
    .join(' ');

/** Clauses of the input: ELIZA answers the first one that has a keyword (periods, commas, "but"). */
function clauses(input: string): string[] {
  return input
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}'\s.,;:!?]/gu, ' ')
    .split(/[.,;:!?]|\bbut\b/)
    .map((clause) => substitute(clause, preSubstitutions))
    .filter(Boolean);
}

/** Keywords of a clause, highest rank first; equal ranks keep the order they appear in (the keystack). */
function keystack(clause: string): string[] {
  const found: string[] = [];
  for (const word of clause.split(' ')) {
    if (!(word in keywords) || found.includes(word)) continue;
    const rank = keywords[word].rank;
    const position = found.findIndex((key) => keywords[key].rank < rank);
    if (position === -1) found.push(word);
    else found.splice(position, 0, word);
  }
  return found;
}

const sentence = (text: string) => {
  const tidy = text
    .replace(/\s+/g, ' ')
    .replace(/\s+([?.!,])/g, '$1')
    .trim();
  return tidy.charAt(0).toUpperCase() + tidy.slice(1);
};

/**
 * One ELIZA conversation: the reassemblies of each decomposition are used in turn, and MEMORY
 * keeps remarks about "my …" to bring back when nothing else applies, as in the 1966 program.
 */
export class Eliza {
  private readonly used = new Map<Decomposition, number>();
  private readonly memory: string[] = [];

  static readonly greeting = greeting;

  reply(input: string): string {
    for (const clause of clauses(input)) {
      for (const key of keystack(clause)) {
        const answer = this.answer(key, clause, 0);
        if (answer) return sentence(answer);
      }
    }
    const remembered = this.memory.shift();
    return sentence(remembered ?? this.answer('xnone', '', 0) ?? 'Please go on.');
  }

  private next(decomposition: Decomposition): string {
    const turn = this.used.get(decomposition) ?? 0;
    this.used.set(decomposition, turn + 1);
    return decomposition.reassemblies[turn % decomposition.reassemblies.length];
  }

  private answer(key: string, clause: string, depth: number): string | null {
    if (depth > 5) return null;
    for (const decomposition of keywords[key].decompositions) {
      const match = compile(decomposition.pattern).exec(clause);
      if (!match) continue;
      const template = this.next(decomposition);
      const parts = match.slice(1).map((part) => substitute(part ?? '', postSubstitutions));
      const filled = template.replace(/\((\d)\)/g, (_, n: string) => parts[Number(n) - 1] ?? '');
      if (decomposition.pattern.startsWith('$')) {
        this.memory.push(filled);
        continue;
      }
      if (template.startsWith('goto ')) return this.answer(template.slice(5), clause, depth + 1);
      return filled;
    }
    return null;
  }
}
