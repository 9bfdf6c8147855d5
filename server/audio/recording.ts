import { fileTypeFromBuffer } from 'file-type';
import { ApiError } from '../errors';

/** The longest recording transcribed, in seconds (OpenAI's own limit is 25 MB a file). */
export const maxSeconds = 10 * 60;
export const maxBytes = 25 * 1024 * 1024;

/** What the bytes show (never the name or the client's header) → the extension providers read the format by. */
const formats: Record<string, string> = {
  webm: 'webm',
  ogg: 'ogg',
  opus: 'ogg',
  oga: 'ogg',
  mp3: 'mp3',
  wav: 'wav',
  m4a: 'm4a',
  // Safari records audio-only MP4.
  mp4: 'mp4',
};

export const unsupportedAudio = () =>
  new ApiError(
    415,
    'This is not a recording Parley can transcribe. Accepted: WebM, Ogg, MP3, WAV and M4A audio.',
    'UNSUPPORTED_AUDIO',
    'file',
  );
export const unreadableAudio = (reason: string) =>
  new ApiError(422, `This recording cannot be read: ${reason}`, 'UNREADABLE_AUDIO', 'file');
export const tooLong = () =>
  new ApiError(413, `The recording is longer than ${maxSeconds / 60} minutes.`, 'AUDIO_TOO_LONG', 'file');

/** The seconds of a WAV's samples: its data chunk (as far as the bytes go) over its byte rate. */
function wavSeconds(bytes: Buffer): number {
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 16 <= bytes.length) byteRate = bytes.readUInt32LE(at + 16);
    if (id === 'data') {
      if (!byteRate) break;
      return Math.min(size, bytes.length - at - 8) / byteRate;
    }
    at += 8 + size + (size % 2);
  }
  throw unreadableAudio('its WAV header has no format or no samples.');
}

/**
 * A recording checked: its format sniffed from the bytes (415 otherwise, 400 when empty), and for
 * WAV its exact length (413 beyond `maxSeconds`). Other formats are measured by the provider.
 */
export async function checkRecording(bytes: Buffer): Promise<{ extension: string; seconds: number | null }> {
  if (!bytes.length) throw new ApiError(400, 'The recording is empty.', 'EMPTY_AUDIO', 'file');
  const sniffed = await fileTypeFromBuffer(bytes);
  const extension = sniffed && formats[sniffed.ext];
  if (!extension) throw unsupportedAudio();
  if (extension !== 'wav') return { extension, seconds: null };
  const seconds = wavSeconds(bytes);
  if (seconds > maxSeconds) throw tooLong();
  if (seconds <= 0) throw new ApiError(400, 'The recording is empty.', 'EMPTY_AUDIO', 'file');
  return { extension, seconds };
}

/** The longest text read aloud in one request (OpenAI's own limit). */
export const maxSpeechCharacters = 4096;

/**
 * How long a text takes to read, in seconds: about 15 characters a second (150 words a minute), the
 * pace speech models keep. Speech is priced by this estimate, known before the provider is called.
 */
export const speechSeconds = (text: string) => Math.max(1, [...text].length / 15);
