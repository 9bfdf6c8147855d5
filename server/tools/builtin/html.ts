/**
 * The readable text of an HTML page, for a model to read: no markup, scripts, styles or hidden parts;
 * block elements on lines of their own, list items as "- ", entities decoded. A small scanner rather
 * than a DOM (no HTML parser is a dependency of the server): every step is linear in the page's size,
 * so a hostile page of a megabyte cannot make it slow.
 */

/** Elements whose content is never text a reader sees. */
const hidden = [
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'head',
];

/** Elements that start a new line. */
const blocks = new Set(
  'address article aside blockquote body br dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section summary table tbody thead tfoot tr ul caption'.split(
    ' ',
  ),
);

const named: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  times: '×',
  divide: '÷',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  deg: '°',
  plusmn: '±',
  shy: '',
  zwj: '',
  zwnj: '',
};

/** Decodes character references: the common named ones and every valid numeric one. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : '\uFFFD';
    }
    return named[body.toLowerCase()] ?? whole;
  });
}

/** The text with every `<name …>…</name>` of the hidden elements removed (an unclosed one: to the end). */
function withoutHidden(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  const opening = new RegExp(`<(${hidden.join('|')})(?=[\\s/>])`, 'g');
  for (;;) {
    opening.lastIndex = at;
    const found = opening.exec(lower);
    if (!found) break;
    out += html.slice(at, found.index);
    const close = lower.indexOf(`</${found[1]}`, found.index + found[0].length);
    if (close < 0) return out;
    const end = lower.indexOf('>', close);
    if (end < 0) return out;
    at = end + 1;
  }
  return out + html.slice(at);
}

/** The page's title, when it has one. */
function titleOf(html: string): string | undefined {
  const match = /<title[^<>]*>([^<]{0,500})/i.exec(html);
  const title = match ? decodeEntities(match[1]).replace(/\s+/g, ' ').trim() : '';
  return title || undefined;
}

export function htmlToText(html: string): { title?: string; text: string } {
  const title = titleOf(html);
  // Comments and CDATA first: they may hide tags.
  const source = withoutHidden(
    html.replace(/<!--[\s\S]*?(-->|$)/g, '').replace(/<!\[CDATA\[[\s\S]*?(\]\]>|$)/g, ''),
  );
  const text = source
    // A tag: its name, then attributes whose quoted values may hold ">". No part of a match crosses
    // a "<" and the name cannot be re-split, so a failed match costs only the text up to the next "<".
    .replace(
      /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?=[\s/>])(?:"[^"<]*"|'[^'<]*'|[^'"<>])*>/g,
      (_, closing: string, name: string) => {
        const tag = name.toLowerCase();
        // A list's items on consecutive lines.
        if (tag === 'li') return closing ? '' : '\n- ';
        if (tag === 'td' || tag === 'th') return ' ';
        if (tag === 'img' || tag === 'input') return ' ';
        return blocks.has(tag) ? '\n' : '';
      },
    )
    // Doctypes, processing instructions and stray markup.
    .replace(/<[!?][^<>]*>/g, '');
  const lines = decodeEntities(text)
    .split(/\r?\n/)
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim());
  return {
    ...(title ? { title } : {}),
    text: lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  };
}
