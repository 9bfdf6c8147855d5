import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useActors } from '../app/ActorsContext';
import {
  formatBytes,
  formatDateTime,
  formatDuration,
  formatMoney,
  formatNumber,
  formatPercent,
  formatRelativeTime,
  formatShortDateTime,
  formatUtcDay,
} from './format';

/** The Intl formats bound to the display language. */
export function useFormat() {
  const { language } = useActors();
  const code = useSelector(language, (snapshot) => snapshot.context.language);
  return useMemo(
    () => ({
      money: (amount: number, currency: string) => formatMoney(amount, currency, code),
      number: (value: number) => formatNumber(value, code),
      bytes: (value: number) => formatBytes(value, code),
      duration: (ms: number) => formatDuration(ms, code),
      percent: (share: number) => formatPercent(share, code),
      relativeTime: (date: Date, now: number) => formatRelativeTime(date, now, code),
      dateTime: (date: Date) => formatDateTime(date, code),
      shortDateTime: (date: Date) => formatShortDateTime(date, code),
      utcDay: (date: Date) => formatUtcDay(date, code),
    }),
    [code],
  );
}
