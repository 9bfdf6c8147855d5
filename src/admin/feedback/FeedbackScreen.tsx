import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { FeedbackFigures } from '../../../machines/adminList';
import { Loading } from '../../components/Loading';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { ListProblem } from '../ListProblem';
import { TableScroll } from '../TableScroll';
import { useAdmin } from '../useAdmin';

const lead =
  'The thumbs up and down members gave replies, and the reasons they wrote: never the conversations or who.';

interface Tally {
  key: string;
  name: string;
  up: number;
  down: number;
}

/** The rows summed by what `keyOf` says they share (their bot, or their model), in the rows' order. */
function tally(
  rows: FeedbackFigures[],
  keyOf: (row: FeedbackFigures) => string,
  nameOf: (row: FeedbackFigures) => string,
) {
  const sums = new Map<string, Tally>();
  for (const row of rows) {
    const key = keyOf(row);
    const sum = sums.get(key) ?? { key, name: nameOf(row), up: 0, down: 0 };
    sums.set(key, { ...sum, up: sum.up + row.up, down: sum.down + row.down });
  }
  return [...sums.values()];
}

/** Thumbs up and down, and the share of thumbs up, one row per bot or model. */
function ThumbsTable({ caption, first, rows }: { caption: string; first: string; rows: Tally[] }) {
  const t = useT();
  const format = useFormat();
  return (
    <TableScroll>
      <table className="admin-table figures">
        <caption>{t(caption)}</caption>
        <thead>
          <tr>
            <th scope="col">{t(first)}</th>
            <th scope="col">{t('Share of thumbs up')}</th>
            <th scope="col">{t('Thumbs up')}</th>
            <th scope="col">{t('Thumbs down')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">
                <bdi>{row.name}</bdi>
              </th>
              <td>{format.percent(row.up / (row.up + row.down))}</td>
              <td>{format.number(row.up)}</td>
              <td>{format.number(row.down)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * What members thought of the replies: per bot and per model the share of thumbs up, with the counts,
 * and the newest reasons they gave — never the conversations or who.
 */
export function FeedbackScreen() {
  const { feedback } = useAdmin();
  const t = useT();
  const format = useFormat();
  const items = useSelector(feedback, (snapshot) => snapshot.context.items);
  const list = useSelector(feedback, (snapshot) => snapshot.value.list);
  const error = useSelector(feedback, (snapshot) => snapshot.context.error);

  // Read afresh each time the screen is shown.
  useEffect(() => {
    feedback.send({ type: 'LOAD' });
  }, [feedback]);

  const botName = (row: FeedbackFigures) => row.bot?.name ?? t('A deleted bot');
  const modelName = (row: FeedbackFigures) => row.model?.name ?? t('The bot’s own model');
  const reasoned = items.filter((row) => row.reasons.length > 0);

  return (
    <section aria-labelledby="admin-feedback">
      <h1 id="admin-feedback">
        <T>Feedback</T>
      </h1>
      <p className="lead">{t(lead)}</p>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => feedback.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No feedback yet. Members rate a reply with the thumbs under it.</T>
        </p>
      )}
      {items.length > 0 && (
        <>
          <ThumbsTable
            caption="Per bot"
            first="Bot"
            rows={tally(items, (row) => row.bot?._id ?? '', botName)}
          />
          <ThumbsTable
            caption="Per model"
            first="Model"
            rows={tally(items, (row) => row.model?._id ?? '', modelName)}
          />
          <h2>
            <T>Reasons</T>
          </h2>
          {reasoned.length === 0 && (
            <p className="muted">
              <T>No reasons given yet.</T>
            </p>
          )}
          {reasoned.map((row) => (
            <section
              key={row._id}
              className="feedback-reasons"
              aria-label={`${botName(row)}, ${modelName(row)}`}
            >
              <h3>
                <bdi>{botName(row)}</bdi> · <bdi>{modelName(row)}</bdi>
              </h3>
              <ul>
                {row.reasons.map((reason) => (
                  <li key={`${reason.at}${reason.text}`}>
                    <span className="reason-rating">{t(reason.rating === 'up' ? 'Good' : 'Bad')}</span>{' '}
                    <bdi>{reason.text}</bdi>{' '}
                    <time className="muted" dateTime={reason.at}>
                      {format.dateTime(new Date(reason.at))}
                    </time>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </section>
  );
}
