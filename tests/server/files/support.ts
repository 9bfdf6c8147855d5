import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { Document, Packer, Paragraph } from 'docx';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { Json, TestServer } from '../../support/app';

/** Uploads as a browser's FormData does: multipart, field `file`, with the name and type the client claims. */
export async function upload(
  server: TestServer,
  user: { token: string; tenant?: string },
  bytes: Uint8Array,
  name = 'file.bin',
  claimedType = 'application/octet-stream',
  field = 'file',
): Promise<{ status: number; body: Json; ms: number }> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type: claimedType }), name);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/v1/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, organization: user.tenant ?? 'app' },
    body: form,
  });
  const body = await response.json().catch(() => null);
  return { status: response.status, body, ms: performance.now() - started };
}

/** GET of a file's bytes, with the answer's headers. */
export async function download(
  server: TestServer,
  user: { token: string; tenant?: string },
  id: string,
  query = '',
) {
  const response = await fetch(`${server.url}/api/v1/file/${id}/content${query}`, {
    headers: { authorization: `Bearer ${user.token}`, organization: user.tenant ?? 'app' },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** A real PDF made by pdfkit: `draw` adds its pages. */
export function pdfOf(
  draw: (document: InstanceType<typeof PDFDocument>) => void,
  options: ConstructorParameters<typeof PDFDocument>[0] = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({ autoFirstPage: false, ...options });
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
    draw(document);
    document.end();
  });
}

/** A real PDF made by pdfkit: `pages` pages each saying which it is (and `text` on the first). */
export function makePdf(pages = 1, options: { text?: string; userPassword?: string } = {}): Promise<Buffer> {
  return pdfOf(
    (document) => {
      for (let page = 1; page <= pages; page += 1) {
        document.addPage();
        document.text(page === 1 && options.text ? options.text : `Page ${page}`);
      }
    },
    options.userPassword ? { userPassword: options.userPassword, pdfVersion: '1.7' } : {},
  );
}

/** A real DOCX made by the docx package, one paragraph per line. */
export function makeDocx(lines: string[]): Promise<Buffer> {
  const document = new Document({
    sections: [{ children: lines.map((line) => new Paragraph({ text: line })) }],
  });
  return Packer.toBuffer(document);
}

/** A ZIP archive written by hand (deflated entries), as a DOCX is laid out. */
export function makeZip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const packed = deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/**
 * A DOCX zip bomb: a well-formed Word package whose document.xml inflates from a few hundred KB to
 * `megabytes` MB (spaces compress about a thousandfold).
 */
export function docxBomb(megabytes = 200): Buffer {
  return makeZip([
    { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
    { name: '_rels/.rels', data: Buffer.from(rootRels) },
    { name: 'word/document.xml', data: Buffer.alloc(megabytes * 1024 * 1024, ' ') },
  ]);
}

/** A JPEG from sharp carrying EXIF metadata (a copyright and a camera), as phones' photos do. */
export function photoWithExif(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'Secret Location Inc', Make: 'PhoneCam', Model: 'X1' } })
    .toBuffer();
}

export const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 120, b: 255, alpha: 1 } } })
    .png()
    .toBuffer();

/** The entries of a ZIP archive by name (stored or deflated), read from its central directory. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  const entries = new Map<string, Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let index = 0; index < count; index += 1) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
  }
  return entries;
}

/**
 * The review's animated GIF: `frames` frames of one pixel each on a `side` × `side` canvas (~1 KB), so
 * that every frame decodes to the whole canvas.
 */
export function gifBomb(frames = 49, side = 1000): Buffer {
  const screen = Buffer.alloc(13);
  screen.write('GIF89a', 'latin1');
  screen.writeUInt16LE(side, 6);
  screen.writeUInt16LE(side, 8);
  screen[10] = 0x80; // a global colour table of two colours
  const parts = [screen, Buffer.from([0, 0, 0, 255, 255, 255])];
  // Loops forever (NETSCAPE2.0), as animations do.
  parts.push(Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0]));
  for (let frame = 0; frame < frames; frame += 1) {
    // Graphic control: keep the previous frame, 0.1 s each.
    parts.push(Buffer.from([0x21, 0xf9, 4, 0x04, 10, 0, 0, 0]));
    const descriptor = Buffer.alloc(10);
    descriptor[0] = 0x2c;
    descriptor.writeUInt16LE(frame % side, 1);
    descriptor.writeUInt16LE(frame % side, 3);
    descriptor.writeUInt16LE(1, 5);
    descriptor.writeUInt16LE(1, 7);
    // One pixel of LZW (minimum code size 2): clear, colour 0, end.
    parts.push(descriptor, Buffer.from([2, 2, 0x4c, 0x01, 0]));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/**
 * The review's PDF stream bomb: one page whose content stream (FlateDecode) inflates to `megabytes` MB
 * of NUL bytes, whitespace to a PDF reader: about 1 KB per MB. The deflate data is one MB compressed
 * once and repeated (each piece ends with a full flush, so they join into one stream).
 */
export function pdfBomb(megabytes = 1024): Buffer {
  const piece = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const inflated = megabytes * (1 << 20);
  // zlib's header, the pieces, an empty final block, and the Adler-32 of that many zeros.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((inflated % 65521) << 16) | 1) >>> 0);
  const data = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: megabytes }, () => piece),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0].length;
  const add = (...buffers: Buffer[]) => {
    parts.push(...buffers);
    length += buffers.reduce((sum, buffer) => sum + buffer.length, 0);
  };
  const object = (number: number, ...body: Buffer[]) => {
    offsets.push(length);
    add(Buffer.from(`${number} 0 obj\n`), ...body, Buffer.from('\nendobj\n'));
  };
  object(1, Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'));
  object(2, Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'));
  object(3, Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'));
  object(
    4,
    Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  );
  const xref = length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  add(
    Buffer.from(
      `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
