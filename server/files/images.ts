import sharp from 'sharp';
import { type ImageType, type Refusal, tooLarge, unreadable } from './kinds';

export interface ImageLimits {
  maxPixels: number;
  /** An animation's frames together: re-encoding a frame costs several times a still image's pixels. */
  maxAnimationPixels: number;
  timeoutMs: number;
}

export interface ProcessedImage {
  /** The image as stored and served: re-encoded, so its EXIF metadata (location, camera) is gone. */
  bytes: Buffer;
  thumbnail: Buffer;
}

const thumbnailSize = 320;
const millions = (pixels: number) => Math.round(pixels / 1e5) / 10;
export const thumbnailType = 'image/webp';

/**
 * Re-encodes an image in its own format without its metadata (turned upright first, as EXIF said),
 * and makes its thumbnail. libvips works on its own threads, under a pixel limit and a time limit.
 * Every frame of an animation is its whole canvas once decoded (however small the frame is in the
 * file): frames × canvas are counted against the limits from the headers, before anything is decoded.
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
    const canvas = (metadata.width ?? 0) * (metadata.height ?? 0);
    if (canvas * frames > limits.maxPixels)
      return tooLarge(`The image has more than ${millions(limits.maxPixels)} million pixels.`);
    if (frames > 1 && canvas * frames > limits.maxAnimationPixels)
      return tooLarge(
        `The animation has ${frames} frames of ${metadata.width}×${metadata.height} pixels; at most ${millions(limits.maxAnimationPixels)} million pixels over all its frames are accepted.`,
      );
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
      return tooLarge(`The image has more than ${millions(limits.maxPixels)} million pixels.`);
    if (/timeout/i.test(message))
      return unreadable(`The image could not be processed within ${seconds} seconds.`);
    return unreadable('The image is damaged: it cannot be read.');
  }
}
