import { ApiError } from '../errors';

/** An export that cannot be read: 422 with what is wrong, nothing written. */
export const unreadableExport = (message: string) => new ApiError(422, message, 'INVALID_EXPORT', 'file');

export interface ArrayLimits {
  /** Objects and arrays inside one another at most, within an element (absurd nesting is refused). */
  maxDepth: number;
  /** One element's JSON text at most, in bytes: only one element is ever held. */
  maxItemBytes: number;
}

const [space, tab, newline, carriage] = [0x20, 0x09, 0x0a, 0x0d];
const [openBrace, closeBrace, openBracket, closeBracket] = [0x7b, 0x7d, 0x5b, 0x5d];
const [quote, backslash, comma] = [0x22, 0x5c, 0x2c];
const isSpace = (byte: number) => byte === space || byte === newline || byte === carriage || byte === tab;

/**
 * The elements of the JSON array that `bytes` hold, parsed one at a time as they arrive: the scan
 * finds where each element ends (strings, escapes and nesting followed byte by byte), and only that
 * element's text is handed to JSON.parse. A 100 MB file is never held whole. Anything that is not
 * one array of well-formed elements is refused (`unreadableExport`) when it is met.
 */
export async function* arrayItems(
  bytes: AsyncIterable<Buffer>,
  limits: ArrayLimits,
): AsyncGenerator<unknown> {
  // before: up to the '['; between: after '[' or an element; item: inside one; after: past the ']'.
  let state: 'before' | 'between' | 'item' | 'after' = 'before';
  let expectingItem = true;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Buffer[] = [];
  let size = 0;
  let index = 0;
  let first = true;

  const parse = (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw unreadableExport(`Conversation ${index + 1} of the file is not valid JSON.`);
    }
  };

  for await (const chunk of bytes) {
    let at = 0;
    // A UTF-8 byte order mark may start the file.
    if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) at = 3;
    first = false;
    // Where the element being read starts in this chunk (it may have started in an earlier one).
    let start = state === 'item' ? at : -1;
    for (; at < chunk.length; at += 1) {
      const byte = chunk[at];
      if (state === 'item') {
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === backslash) escaped = true;
          else if (byte === quote) inString = false;
          continue;
        }
        if (byte === quote) inString = true;
        else if (byte === openBrace || byte === openBracket) {
          depth += 1;
          if (depth > limits.maxDepth)
            throw unreadableExport(
              `Conversation ${index + 1} is nested more than ${limits.maxDepth} levels deep: this is not an export of conversations.`,
            );
        } else if (byte === closeBrace || byte === closeBracket) {
          depth -= 1;
          if (depth === 0) {
            const piece = chunk.subarray(start, at + 1);
            parts.push(piece);
            size += piece.length;
            if (size > limits.maxItemBytes) throw tooLong(index, limits);
            yield parse(Buffer.concat(parts, size).toString('utf8'));
            parts = [];
            size = 0;
            index += 1;
            start = -1;
            state = 'between';
            expectingItem = false;
          }
        }
        continue;
      }
      if (isSpace(byte)) continue;
      if (state === 'before') {
        if (byte !== openBracket)
          throw unreadableExport(
            byte === openBrace
              ? 'This JSON holds one object, not a list of conversations: it is not a ChatGPT or Claude export (conversations.json).'
              : 'This file is not JSON: choose conversations.json from your ChatGPT or Claude export, or ChatGPT’s .zip.',
          );
        state = 'between';
      } else if (state === 'between') {
        if (byte === closeBracket && (expectingItem ? index === 0 : true)) state = 'after';
        else if (byte === comma && !expectingItem) expectingItem = true;
        else if ((byte === openBrace || byte === openBracket) && expectingItem) {
          state = 'item';
          depth = 1;
          start = at;
        } else
          throw unreadableExport(
            `Conversation ${index + 1} of the file is not an object: this is not a list of conversations.`,
          );
      } else
        throw unreadableExport('The file goes on after its list of conversations: it is not valid JSON.');
    }
    // The element goes on in the next chunk: keep what this one holds of it.
    if (state === 'item') {
      const piece = chunk.subarray(start);
      parts.push(piece);
      size += piece.length;
      if (size > limits.maxItemBytes) throw tooLong(index, limits);
    }
  }
  // (Read through a function: the checker narrows `state` as if the loop had not run.)
  const ending = (): string => state;
  if (ending() !== 'after')
    throw unreadableExport(
      ending() === 'before'
        ? 'The file is empty.'
        : 'The file ends in the middle of its list of conversations: it is cut off.',
    );
}

const tooLong = (index: number, limits: ArrayLimits) =>
  unreadableExport(
    `Conversation ${index + 1} is larger than ${Math.round(limits.maxItemBytes / 1024 / 1024)} MB: it cannot be imported.`,
  );
