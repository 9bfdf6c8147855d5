import { pathToFileURL } from 'node:url';
import { fileTypeFromBuffer } from 'file-type';
import {
  docxType,
  imageTypes,
  pdfType,
  type Reading,
  type Refusal,
  tooLarge,
  unreadable,
  unsupported,
} from './kinds';
import { checkZip } from './zip';

/**
 * Reads one upload in a process of its own, under a memory limit and a time limit that the server
 * enforces by ending the process (./extract.ts): its type from its bytes, and the text of a document.
 */
export interface ExtractJob {
  bytes: Uint8Array;
  maxPages: number;
  maxExpandedBytes: number;
}

/**
 * HTML, SVG and XML documents look like text but a browser would run them: refused. Text that merely
 * contains markup (a README starting with <p align="center">) is text, always served as an attachment.
 */
const markup = /^\s*<(!doctype\s+html|html|svg|\?xml)[\s>]/i;
/** Text keeps its tabs, line breaks, form feeds and escapes; any other control byte means binary. */
const textControls = new Set([9, 10, 12, 13, 27]);
const hasBinaryControl = (bytes: Uint8Array) => bytes.some((byte) => byte < 32 && !textControls.has(byte));

function readText(bytes: Uint8Array): Reading | Refusal {
  if (hasBinaryControl(bytes)) return unsupported('This file type');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return unsupported('This file type');
  }
  if (markup.test(text)) return unsupported('HTML, SVG or XML');
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') {
    try {
      JSON.parse(text);
      return { type: 'application/json', text };
    } catch {
      // Text that merely starts like JSON.
    }
  }
  return { type: 'text/plain', text };
}

async function readPdf(bytes: Uint8Array, maxPages: number): Promise<Reading | Refusal> {
  // A PDF ends with %%EOF (readers allow trailing bytes up to 1 KB): without it the file was cut short.
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString('latin1');
  if (!tail.includes('%%EOF')) return unreadable('The PDF is incomplete: it looks cut short.');
  const { getDocumentProxy } = await import('unpdf');
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(bytes, {
      verbosity: 0,
      isEvalSupported: false,
      stopAtErrors: true,
      disableFontFace: true,
      useSystemFonts: false,
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'PasswordException') return unreadable('The PDF is encrypted (password-protected).');
    return unreadable('The PDF is damaged: it cannot be read.');
  }
  const pages = document.numPages;
  if (pages < 1) return unreadable('The PDF has no pages.');
  if (pages > maxPages) return tooLarge(`The PDF has ${pages} pages; at most ${maxPages} are accepted.`);
  const texts: string[] = [];
  try {
    for (let number = 1; number <= pages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      texts.push(
        content.items
          .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : ''))
          .join('')
          .trim(),
      );
      page.cleanup();
    }
  } catch {
    return unreadable('The PDF is damaged: some of its pages cannot be read.');
  } finally {
    await document.destroy();
  }
  // Where each page starts in the joined text: passages of it are cited with their page.
  const pageStarts: number[] = [];
  let at = 0;
  for (const text of texts) {
    pageStarts.push(at);
    at += text.length + 2;
  }
  return { type: pdfType, pages, pageStarts, text: texts.join('\n\n') };
}

async function readDocx(bytes: Uint8Array, maxExpandedBytes: number): Promise<Reading | Refusal> {
  const zip = checkZip(bytes, maxExpandedBytes);
  if (zip) return zip;
  const { default: mammoth } = await import('mammoth');
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return { type: docxType, text: value.trim() };
  } catch {
    return unreadable('The document is damaged: it cannot be read as a Word document.');
  }
}

export async function read(job: ExtractJob): Promise<Reading | Refusal> {
  const { bytes } = job;
  if (!bytes.length) return unreadable('The file is empty.');
  const found = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!found) return readText(bytes);
  if ((imageTypes as readonly string[]).includes(found.mime)) return { type: found.mime };
  if (found.mime === pdfType) return readPdf(bytes, job.maxPages);
  if (found.mime === docxType) return readDocx(bytes, job.maxExpandedBytes);
  return unsupported(`This file type (${found.ext.toUpperCase()})`);
}

/** The process's resident memory as its job arrives: the reading's memory is counted from it. */
export interface Started {
  started: number;
}

// Started by ./extract.ts, with an IPC channel: one job, its answer, and the process ends.
if (process.send && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // A server that ended without ending it (killed) no longer watches it: it ends too.
  process.once('disconnect', () => process.exit(1));
  process.once('message', async (job: ExtractJob) => {
    process.send?.({ started: process.memoryUsage.rss() } satisfies Started);
    // The bytes arrive as a Buffer, which pdf.js does not take.
    const { buffer, byteOffset, byteLength } = job.bytes;
    const answer = await read({ ...job, bytes: new Uint8Array(buffer, byteOffset, byteLength) });
    process.send?.(answer, () => process.exit(0));
  });
}
