import { describe, expect, it } from 'vitest';
import { textDir } from '../../../src/i18n/bidi';
import {
  formatDateTime,
  formatDuration,
  formatMoney,
  formatNumber,
  formatRelativeTime,
  formatShortDateTime,
} from '../../../src/i18n/format';

describe('formats in the display language', () => {
  const now = new Date('2026-03-15T10:00:00Z').getTime();

  it('says how long ago in words, in the language asked for', () => {
    expect(formatRelativeTime(new Date(now - 20_000), now, 'en')).toBe('now');
    expect(formatRelativeTime(new Date(now - 5 * 60_000), now, 'en')).toBe('5 minutes ago');
    expect(formatRelativeTime(new Date(now - 26 * 3600_000), now, 'en')).toBe('yesterday');
    expect(formatRelativeTime(new Date(now - 3 * 3600_000), now, 'de')).toBe('vor 3 Stunden');
    expect(formatRelativeTime(new Date(now - 2 * 86400_000), now, 'fr')).toBe('avant-hier');
  });

  it('formats money, numbers and exact times with Intl', () => {
    // Intl puts a no-break space before the euro sign in German.
    expect(formatMoney(9.5, 'EUR', 'de')).toMatch(/^9,50\s€$/);
    expect(formatMoney(9.5, 'NOPE', 'en')).toBe('9.5 NOPE');
    expect(formatNumber(1234, 'de')).toBe('1.234');
    expect(formatDateTime(new Date(now), 'en')).toContain('2026');
    // A charge in the order history: its day and time, short.
    expect(formatShortDateTime(new Date(now), 'de')).toMatch(/^15\.03\.2026, \d\d:\d\d$/);
  });

  it('says how long a tool took: milliseconds under a second, seconds above', () => {
    expect(formatDuration(340, 'en')).toBe('340 ms');
    expect(formatDuration(2480, 'en')).toBe('2.5 sec');
    expect(formatDuration(2480, 'de')).toMatch(/^2,5\sSek\.$/);
  });
});

describe('text direction of user and bot text', () => {
  it('lets letters decide, and keeps text without any letter left to right', () => {
    expect(textDir('مرحبا')).toBe('auto');
    expect(textDir('Hello')).toBe('auto');
    expect(textDir('(2+3)*4^2 / 3')).toBe('ltr');
    expect(textDir('= **26.67**')).toBe('ltr');
  });
});
