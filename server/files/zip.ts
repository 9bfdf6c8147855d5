import { inflateRawSync } from 'node:zlib';
import { type Refusal, tooLarge, unreadable } from './kinds';

const damaged = () => unreadable('The document is damaged: its ZIP structure cannot be read.');

/**
 * Checks a ZIP archive (a DOCX) before anything unpacks it: every entry is inflated here with a cap on
 * what it may produce, so a zip bomb is refused whatever sizes its headers claim. Answers a refusal,
 * or null when the whole archive unpacks to at most `maxExpandedBytes`.
 */
export function checkZip(bytes: Uint8Array, maxExpandedBytes: number): Refusal | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end of central directory record: 22 bytes and a comment of up to 64 KB, at the very end.
  let end = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 65_535); at -= 1) {
    if (data.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return damaged();
  const entries = data.readUInt16LE(end + 10);
  const directoryOffset = data.readUInt32LE(end + 16);
  // ZIP64 marks: no Word document needs them.
  if (entries === 0xffff || directoryOffset === 0xffffffff) return damaged();
  if (entries > 10_000) return tooLarge('The document has too many parts.');
  const tooBig = () =>
    tooLarge(
      `The document unpacks to more than ${Math.round(maxExpandedBytes / 1024 / 1024)} MB: it is not accepted.`,
    );

  let total = 0;
  let at = directoryOffset;
  for (let index = 0; index < entries; index += 1) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) return damaged();
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const declared = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const local = data.readUInt32LE(at + 42);
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (flags & 1) return unreadable('The document is encrypted (password-protected).');
    if (total + declared > maxExpandedBytes) return tooBig();
    if (local + 30 > data.length || data.readUInt32LE(local) !== 0x04034b50) return damaged();
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    if (start + compressed > data.length) return damaged();
    const stored = data.subarray(start, start + compressed);
    if (method === 0) total += compressed;
    else if (method === 8) {
      try {
        total += inflateRawSync(stored, { maxOutputLength: maxExpandedBytes - total + 1 }).length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return tooBig();
        return damaged();
      }
    } else return damaged();
    if (total > maxExpandedBytes) return tooBig();
  }
  return null;
}
