import { lexer, type Token, type Tokens } from 'marked';

/** The text of inline tokens: links by their words, images by their description, code spans as written. */
function inline(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      switch (token.type) {
        case 'image':
          return (token as Tokens.Image).text;
        case 'br':
          return '\n';
        case 'html':
          return token.raw.replace(/<[^>]*>/g, '');
        case 'codespan':
        case 'escape':
          return (token as Tokens.Codespan).text;
        default:
          return 'tokens' in token && token.tokens
            ? inline(token.tokens)
            : decode((token as Tokens.Text).text ?? '');
      }
    })
    .join('');
}

/** The few entities marked leaves in text. */
const decode = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '',
  );

/** Each block as lines: paragraphs and headings, list items, table cells; code blocks and rules left out. */
function blocks(tokens: Token[]): string[] {
  return tokens.flatMap((token): string[] => {
    switch (token.type) {
      case 'code':
      case 'hr':
      case 'space':
        return [];
      case 'list':
        return (token as Tokens.List).items.flatMap((item) => blocks(item.tokens));
      case 'blockquote':
        return blocks((token as Tokens.Blockquote).tokens);
      case 'table': {
        const table = token as Tokens.Table;
        return [table.header, ...table.rows].map((row) => row.map((cell) => inline(cell.tokens)).join(', '));
      }
      case 'html':
        return [token.raw.replace(/<[^>]*>/g, '')];
      default:
        return [
          inline('tokens' in token ? token.tokens : undefined) || decode((token as Tokens.Text).text ?? ''),
        ];
    }
  });
}

/**
 * A reply's markdown as it is read aloud: its words only. Code blocks are not read, links by their
 * text (never the address), emphasis and headings' marks dropped, list items and table rows as lines.
 */
export function speakableText(markdown: string): string {
  return blocks(lexer(markdown))
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}
