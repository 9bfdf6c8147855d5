import { useFormat } from '../i18n/useFormat';

/** When something happened, in words ("5 minutes ago"), with the exact date and time as its tooltip. */
export function RelativeTime({ iso, now }: { iso: string; now: number }) {
  const format = useFormat();
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={format.dateTime(date)}>
      {format.relativeTime(date, now)}
    </time>
  );
}
