import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { unreadableExport } from './jsonArray';

/** The conversations of a ZIP export: where they lie in the archive and how they are stored. */
interface Entry {
  start: number;
  compressed: number;
  method: number;
}

const damaged = () => unreadableExport('The .zip is damaged: its structure cannot be read.');
const missing = () =>
  unreadableExport('This .zip holds no conversations.json: choose the export ChatGPT mailed you.');

/** ZIP64 sizes and offset (extra field 0x0001), for the values the central directory left at 0xffffffff. */
function zip64Values(extra: Buffer, wanted: boolean[]): number[] {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === 1) {
      const values: number[] = [];
      let read = at + 4;
      for (const want of wanted) {
        if (!want) continue;
        if (read + 8 > at + 4 + size) throw damaged();
        values.push(Number(extra.readBigUInt64LE(read)));
        read += 8;
      }
      return values;
    }
    at += 4 + size;
  }
  throw damaged();
}

/**
 * Finds `conversations.json` in the ZIP archive at `path` (the shallowest, should there be several)
 * from its central directory, reading only the directory: nothing is unpacked yet.
 */
export async function findConversations(path: string): Promise<Entry> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const read = async (position: number, length: number) => {
      if (position < 0 || length < 0 || position + length > size) throw damaged();
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, position);
      return buffer;
    };
    // The end of central directory record: 22 bytes and a comment of up to 64 KB, at the very end.
    const tailStart = Math.max(0, size - 22 - 65_535 - 20);
    const tail = await read(tailStart, size - tailStart);
    let end = -1;
    for (let at = tail.length - 22; at >= 0; at -= 1)
      if (tail.readUInt32LE(at) === 0x06054b50) {
        end = at;
        break;
      }
    if (end < 0) throw damaged();
    let entries = tail.readUInt16LE(end + 10);
    let directorySize = tail.readUInt32LE(end + 12);
    let directoryOffset = tail.readUInt32LE(end + 16);
    if (entries === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
      // ZIP64: its locator just before, pointing at the ZIP64 end record.
      if (end < 20 || tail.readUInt32LE(end - 20) !== 0x07064b50) throw damaged();
      const record = await read(Number(tail.readBigUInt64LE(end - 12)), 56);
      if (record.readUInt32LE(0) !== 0x06064b50) throw damaged();
      entries = Number(record.readBigUInt64LE(32));
      directorySize = Number(record.readBigUInt64LE(40));
      directoryOffset = Number(record.readBigUInt64LE(48));
    }
    // A directory this large is no export (an export of many images has some thousands of entries).
    if (directorySize > 64 * 1024 * 1024)
      throw unreadableExport('The .zip has too many files to be an export.');
    const directory = await read(directoryOffset, directorySize);
    let found: { name: string; method: number; compressed: number; local: number; flags: number } | null =
      null;
    for (let at = 0, index = 0; index < entries; index += 1) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50) throw damaged();
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const name = directory.subarray(at + 46, at + 46 + nameLength).toString('utf8');
      if (name === 'conversations.json' || name.endsWith('/conversations.json')) {
        let compressed = directory.readUInt32LE(at + 20);
        const uncompressed = directory.readUInt32LE(at + 24);
        let local = directory.readUInt32LE(at + 42);
        const wide = [uncompressed === 0xffffffff, compressed === 0xffffffff, local === 0xffffffff];
        if (wide.some(Boolean)) {
          const values = zip64Values(
            directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength),
            wide,
          );
          if (wide[0]) values.shift();
          if (wide[1]) compressed = values.shift() as number;
          if (wide[2]) local = values.shift() as number;
        }
        const depth = name.split('/').length;
        if (!found || depth < found.name.split('/').length)
          found = {
            name,
            method: directory.readUInt16LE(at + 10),
            compressed,
            local,
            flags: directory.readUInt16LE(at + 8),
          };
      }
      at += 46 + nameLength + extraLength + directory.readUInt16LE(at + 32);
    }
    if (!found) throw missing();
    if (found.flags & 1) throw unreadableExport('The .zip is encrypted (password-protected).');
    if (found.method !== 0 && found.method !== 8) throw damaged();
    const header = await read(found.local, 30);
    if (header.readUInt32LE(0) !== 0x04034b50) throw damaged();
    const start = found.local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    if (start + found.compressed > size) throw damaged();
    return { start, compressed: found.compressed, method: found.method };
  } finally {
    await file.close();
  }
}

/**
 * The bytes of the entry, unpacked as they are read, never more than `maxExpandedBytes` in all: a
 * zip bomb is refused (422) whatever its headers claim, once it has unpacked that much.
 */
export async function* entryBytes(
  path: string,
  entry: Entry,
  maxExpandedBytes: number,
): AsyncGenerator<Buffer> {
  if (entry.compressed === 0) return;
  const stored = createReadStream(path, {
    start: entry.start,
    end: entry.start + entry.compressed - 1,
    highWaterMark: 256 * 1024,
  });
  let total = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > maxExpandedBytes)
        return done(
          unreadableExport(
            `The conversations in this .zip unpack to more than ${Math.round(maxExpandedBytes / 1024 / 1024)} MB: it is not accepted.`,
          ),
        );
      done(null, chunk);
    },
  });
  // One pipeline: a reader that stops early, or a failure, closes the file too.
  const bytes =
    entry.method === 0
      ? pipeline(stored, capped, () => {})
      : pipeline(stored, createInflateRaw(), capped, () => {});
  try {
    for await (const chunk of bytes) yield chunk as Buffer;
  } catch (error) {
    throw (error as { code?: string }).code?.startsWith('Z_') ? damaged() : error;
  }
}
