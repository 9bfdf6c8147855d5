import { useT } from '../../i18n/useT';
import { TableScroll } from '../TableScroll';

export interface FiguresRow {
  key: string;
  name: string;
  messages: number;
  replies: number;
  spend: number;
}

/** Messages, replies and spend, one row per day, bot or member. */
export function FiguresTable({
  caption,
  first,
  rows,
  money,
  number,
}: {
  caption: string;
  first: string;
  rows: FiguresRow[];
  money: (value: number) => string;
  number: (value: number) => string;
}) {
  const t = useT();
  return (
    <TableScroll>
      <table className="admin-table figures">
        <caption>{t(caption)}</caption>
        <thead>
          <tr>
            <th scope="col">{t(first)}</th>
            <th scope="col">{t('Messages')}</th>
            <th scope="col">{t('Replies')}</th>
            <th scope="col">{t('Spend')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                {t('Nothing yet.')}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">
                <bdi>{row.name}</bdi>
              </th>
              <td>{number(row.messages)}</td>
              <td>{number(row.replies)}</td>
              <td>{money(row.spend)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
