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

/** A file's size, e.g. `12 kB` or `1.4 MB`, in the display language's units. */
export function formatBytes(bytes: number, language: string): string {
  const [unit, divisor] =
    bytes >= 1_000_000
      ? (['megabyte', 1_000_000] as const)
      : bytes >= 1000
        ? (['kilobyte', 1000] as const)
        : (['byte', 1] as const);
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: unit === 'megabyte' ? 1 : 0,
  }).format(bytes / divisor);
}

/** A time taken, e.g. `340 ms` or `2.5 sec`, in the display language's units. */
export function formatDuration(ms: number, language: string): string {
  const seconds = ms >= 1000;
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: seconds ? 'second' : 'millisecond',
    unitDisplay: 'short',
    maximumFractionDigits: seconds ? 1 : 0,
  }).format(seconds ? ms / 1000 : ms);
}

/** A share from 0 to 1 as a percentage, e.g. `45 %`. */
export const formatPercent = (share: number, language: string) =>
  new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share);

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

/** A date and time in short, as in 2 Jan 2026, 03:04: a charge in the order history. */
export const formatShortDateTime = (date: Date, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);

/** A calendar day of UTC, e.g. `1 September 2025`, in the display language. */
export function formatUtcDay(date: Date, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** The first day of the next calendar month (UTC): when a monthly budget starts again. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
