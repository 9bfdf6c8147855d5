/** Numbers, money and dates in the display language, through Intl. */

/** A price or balance, e.g. `€10.00` or `10,00 €`. */
export function formatMoney(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, maximumFractionDigits: 4 }).format(
      amount,
    );
  } catch {
    return `${amount} ${currency}`;
  }
}

export const formatNumber = (value: number, language: string) =>
  new Intl.NumberFormat(language).format(value);

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago, in words: "now", "5 minutes ago", "yesterday", "last week"… */
export function formatRelativeTime(date: Date, now: number, language: string): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** The exact date and time, as in Friday, 2 January 2026 at 03:04. */
export const formatDateTime = (date: Date, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short' }).format(date);
