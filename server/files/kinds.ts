/** What an upload may be, by the type its bytes show (never its name or the client's header). */
export const imageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const pdfType = 'application/pdf';
export const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Plain text, Markdown, CSV and source code are all text/plain: bytes cannot tell them apart. */
export const textTypes = ['text/plain', 'application/json'] as const;

export type ImageType = (typeof imageTypes)[number];
export const isImage = (type: string): type is ImageType => (imageTypes as readonly string[]).includes(type);

export const acceptedSentence =
  'Accepted: images (PNG, JPEG, WebP, GIF), PDF, Word (DOCX), plain text, Markdown, CSV, JSON and source code.';

/** A refusal the extraction reports: the route answers it as an ApiError. */
export interface Refusal {
  status: 413 | 415 | 422;
  code: string;
  error: string;
}

export const unsupported = (what: string): Refusal => ({
  status: 415,
  code: 'UNSUPPORTED_TYPE',
  error: `${what} is not accepted. ${acceptedSentence}`,
});
export const unreadable = (reason: string): Refusal => ({ status: 422, code: 'UNREADABLE', error: reason });
export const tooLarge = (reason: string): Refusal => ({ status: 413, code: 'FILE_TOO_LARGE', error: reason });

/**
 * What reading an upload found: its type, and for documents their text (and a PDF's pages, with
 * the offset in the text where each starts).
 */
export type Reading = { type: string; text?: string; pages?: number; pageStarts?: number[] };
