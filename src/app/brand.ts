const brandPattern = /^#[0-9a-f]{6}$/i;
const properties = ['--brand', '--brand-hover', '--brand-strong'];

/**
 * The organization's brand colour as the app's accent: buttons and the active tab take it, links a
 * shade of it readable on the page in either colour scheme. None (or no colour): Parley's own accent.
 */
export function applyBrandColor(style: CSSStyleDeclaration, color: string | null | undefined) {
  if (!color || !brandPattern.test(color)) {
    for (const property of properties) style.removeProperty(property);
    return;
  }
  style.setProperty('--brand', color);
  style.setProperty('--brand-hover', `color-mix(in srgb, ${color} 82%, black)`);
  style.setProperty(
    '--brand-strong',
    `light-dark(color-mix(in srgb, ${color} 85%, black), color-mix(in srgb, ${color} 35%, white))`,
  );
}
