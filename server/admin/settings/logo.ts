import { createHash } from 'node:crypto';
import { ApiError } from '../../errors';

export const logoMaxBytes = 100 * 1024;
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const badLogo = (message: string) => new ApiError(400, message, 'INVALID_LOGO', 'logo');

/**
 * What an SVG logo may not contain: anything that runs (scripts, event handlers, javascript: URLs),
 * embeds other documents (foreignObject, iframe…), or reaches outside the file (any href or url() that
 * is not a local #fragment, @import, entities and DTDs). Refused rather than rewritten: a logo is made
 * once, and a clean file is easy to export. The file is also served with `default-src 'none'`.
 */
const svgRefusals: [RegExp, string][] = [
  [/<!(?:DOCTYPE|ENTITY|\[CDATA\[)/i, 'a DOCTYPE, entity or CDATA section'],
  [/<\s*script\b/i, 'a script'],
  [
    /<\s*(?:foreignObject|iframe|embed|object|frame|frameset|audio|video|canvas|meta|link|base|form|input|textarea|button)\b/i,
    'embedded content',
  ],
  [/<\s*(?:animate|animateMotion|animateTransform|set|discard|handler|listener)\b/i, 'animation elements'],
  [/\bon[a-z]+\s*=/i, 'an event handler'],
  [/(?:javascript|vbscript|data)\s*:/i, 'a script or data URL'],
  [/&#|&[a-z]+;/i, 'character references'],
  [/\bhref\s*=\s*(?:"\s*(?![\s#])|'\s*(?![\s#])|(?!["'#\s]))/i, 'a link to another file'],
  [/url\s*\(\s*(?:"\s*(?![\s#])|'\s*(?![\s#])|(?!["'#\s]))/i, 'a reference to another file'],
  [/@import\b/i, 'an @import'],
  [/<\?(?!xml\s)/i, 'processing instructions'],
];

export function checkSvg(bytes: Buffer): void {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw badLogo('The SVG file is not valid UTF-8 text.');
  const body = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^?]*\?>/i, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  if (!/^<svg[\s>/]/i.test(body) || !/(?:<\/svg\s*>|\/>)$/i.test(body))
    throw badLogo('The file is not an SVG image.');
  for (const [pattern, what] of svgRefusals) {
    if (pattern.test(text)) throw badLogo(`The SVG logo contains ${what}, which is not allowed.`);
  }
}

/** A logo from the settings form: PNG or SVG, base64, at most 100 KB, checked; answers what is stored. */
export function checkLogo(logo: { type: string; data: string }): {
  data: string;
  type: string;
  version: string;
} {
  const data = logo.data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0)
    throw badLogo('The logo is not base64 data.');
  const bytes = Buffer.from(data, 'base64');
  if (!bytes.length) throw badLogo('The logo file is empty.');
  if (bytes.length > logoMaxBytes) throw badLogo('The logo is larger than 100 KB.');
  if (logo.type === 'image/png') {
    if (!bytes.subarray(0, 8).equals(pngSignature)) throw badLogo('The file is not a PNG image.');
  } else {
    checkSvg(bytes);
  }
  return {
    data: bytes.toString('base64'),
    type: logo.type,
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
