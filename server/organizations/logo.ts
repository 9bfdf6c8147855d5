import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ApiError } from '../errors';

export const logoMaxBytes = 100 * 1024;
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const badLogo = (message: string) => new ApiError(400, message, 'INVALID_LOGO', 'logo');

/** The longest side of an SVG logo drawn as a PNG: sharp where it is shown (4 rem high), at 2× and more. */
const drawnSide = 512;
const drawPixelLimit = 16_000_000;

/**
 * An SVG logo drawn as a PNG, which is what is stored and served: nothing in it can run or be read as a
 * page (scripts, event handlers, links, `<foreignObject>`, CSS in any spelling — `u\72l()`, `@\69mport`,
 * `image-set()` — are at most drawn, never executed). librsvg (in sharp's libvips) draws it from memory,
 * without a base address, so it loads no other file and nothing from the network, no external entity
 * or DTD, and caps entity expansion; a pixel and a time limit bound the work.
 */
export async function drawSvgLogo(svg: Buffer): Promise<Buffer> {
  const open = (options: { density?: number; limitInputPixels: number | false }) =>
    sharp(svg, { ...options, failOn: 'error' }).timeout({ seconds: 5 });
  // The header only: the size it declares (at 72 dpi), nothing drawn yet.
  const metadata = await open({ limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (metadata?.format !== 'svg') throw badLogo('The file is not an SVG image, or it cannot be read.');
  if (!metadata.width || !metadata.height)
    throw badLogo('The SVG logo has no size: give its <svg> a viewBox, or a width and a height.');
  const density = Math.min(
    100_000,
    Math.max(1, (72 * drawnSide) / Math.max(metadata.width, metadata.height)),
  );
  try {
    return await open({ density, limitInputPixels: drawPixelLimit })
      .resize(drawnSide, drawnSide, { fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (/pixel limit/i.test(message))
      throw badLogo('The SVG logo is too large to draw: give it a smaller size.');
    if (/timeout/i.test(message)) throw badLogo('The SVG logo takes too long to draw.');
    throw badLogo('The SVG logo cannot be drawn: the file is damaged.');
  }
}

/**
 * A logo from the settings form: PNG, or SVG drawn as a PNG, base64, at most 100 KB; answers what is
 * stored (always a PNG).
 */
export async function checkLogo(logo: { type: string; data: string }): Promise<{
  data: string;
  type: string;
  version: string;
}> {
  const data = logo.data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0)
    throw badLogo('The logo is not base64 data.');
  const given = Buffer.from(data, 'base64');
  if (!given.length) throw badLogo('The logo file is empty.');
  if (given.length > logoMaxBytes) throw badLogo('The logo is larger than 100 KB.');
  if (logo.type === 'image/png' && !given.subarray(0, 8).equals(pngSignature))
    throw badLogo('The file is not a PNG image.');
  const bytes = logo.type === 'image/png' ? given : await drawSvgLogo(given);
  return {
    data: bytes.toString('base64'),
    type: 'image/png',
    version: createHash('sha256').update(bytes).digest('hex').slice(0, 12),
  };
}

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const channel = (index: number) => {
    const value = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** The contrast ratio of a colour against white (the text on the app's accent buttons). */
export const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

export function checkBrandColor(value: string): string {
  const color = value.trim().toLowerCase();
  if (!/^#[0-9a-f]{6}$/.test(color))
    throw new ApiError(
      400,
      'A brand colour is written #rrggbb, e.g. #1d4ed8.',
      'INVALID_INPUT',
      'brandColor',
    );
  const ratio = contrastWithWhite(color);
  if (ratio < 4.5) {
    throw new ApiError(
      400,
      `White text on ${color} has a contrast of ${ratio.toFixed(2)}:1; it needs at least 4.5:1. Choose a darker colour.`,
      'LOW_CONTRAST',
      'brandColor',
    );
  }
  return color;
}
