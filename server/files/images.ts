import sharp from 'sharp';
import { type ImageType, type Refusal, tooLarge, unreadable } from './kinds';

export interface ImageLimits {
  maxPixels: number;
  timeoutMs: number;
}

export interface ProcessedImage {
  /** The image as stored and served: re-encoded, so its EXIF metadata (location, camera) is gone. */
  bytes: Buffer;
  thumbnail: Buffer;
}

const thumbnailSize = 320;
export const thumbnailType = 'image/webp';

/**
 * Re-encodes an image in its own format without its metadata (turned upright first, as EXIF said),
 * and makes its thumbnail. libvips works on its own threads, under a pixel limit and a time limit.
 */
export async function processImage(
  input: Buffer,
  type: ImageType,
  limits: ImageLimits,
): Promise<ProcessedImage | Refusal> {
  const seconds = Math.max(1, Math.round(limits.timeoutMs / 1000));
  const animated = type === 'image/gif' || type === 'image/webp';
  const open = (source: Buffer, all: boolean) =>
    sharp(source, { limitInputPixels: limits.maxPixels, failOn: 'error', animated: all }).timeout({
      seconds,
    });
  try {
    const metadata = await open(input, false).metadata();
    const frames = animated ? (metadata.pages ?? 1) : 1;
    if ((metadata.width ?? 0) * (metadata.height ?? 0) * frames > limits.maxPixels)
      return tooLarge(`The image has more than ${Math.round(limits.maxPixels / 1e6)} million pixels.`);
    const image = open(input, animated).autoOrient();
    const bytes = await (type === 'image/png'
      ? image.png()
      : type === 'image/jpeg'
        ? image.jpeg({ quality: 90, mozjpeg: true })
        : type === 'image/webp'
          ? image.webp({ quality: 90 })
          : image.gif()
    ).toBuffer();
    const thumbnail = await open(bytes, false)
      .resize(thumbnailSize, thumbnailSize, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    return { bytes, thumbnail };
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (/pixel limit/i.test(message))
      return tooLarge(`The image has more than ${Math.round(limits.maxPixels / 1e6)} million pixels.`);
    if (/timeout/i.test(message))
      return unreadable(`The image could not be processed within ${seconds} seconds.`);
    return unreadable('The image is damaged: it cannot be read.');
  }
}
