import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { FormError } from '../../components/FormError';
import { Loading } from '../../components/Loading';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { ListProblem } from '../ListProblem';
import { useAdmin } from '../useAdmin';
import { FiguresTable } from './FiguresTable';
import { UsageChart } from './UsageChart';

/** The last 30 days: messages, replies and spend per day (charts and a table), per bot, per member, as CSV. */
export function UsageScreen() {
  const { usage, settings } = useAdmin();
  const t = useT();
  const format = useFormat();
  const { report, error, downloadError, days } = useSelector(usage, (snapshot) => snapshot.context);
  const state = useSelector(usage, (snapshot) => snapshot.value);
  const settingsCurrency = useSelector(settings, (snapshot) => snapshot.context.draft.currency);
  const currency = report?.currency ?? settingsCurrency ?? 'EUR';
  const money = (value: number) => format.money(value, currency);
  const number = (value: number) => format.number(value);
  const day = (date: string) =>
    new Date(`${date}T00:00:00Z`).toLocaleDateString(document.documentElement.lang || undefined, {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });

  useEffect(() => {
    usage.send({ type: 'LOAD' });
  }, [usage]);

  return (
    <section aria-labelledby="admin-usage">
      <div className="admin-heading">
        <h1 id="admin-usage">
          <T>Usage</T>
        </h1>
        <div className="actions">
          {report && (
            <button
              type="button"
              className="button"
              disabled={state.report === 'loading'}
              onClick={() => usage.send({ type: 'RELOAD' })}
            >
              {state.report === 'loading' ? <T>Refreshing…</T> : <T>Refresh</T>}
            </button>
          )}
          <a
            href={`/api/v1/admin/usage?days=${days}&format=csv`}
            className="button"
            aria-disabled={state.download === 'downloading'}
            onClick={(event) => {
              event.preventDefault();
              usage.send({ type: 'DOWNLOAD' });
            }}
          >
            <T>Download CSV</T>
          </a>
        </div>
      </div>
      <p className="lead">
        <T>The last 30 days.</T>
      </p>
      <FormError message={downloadError} />
      {state.report === 'loading' && !report && <Loading />}
      {state.report === 'failed' && (
        <ListProblem error={error} onRetry={() => usage.send({ type: 'RELOAD' })} />
      )}
      {report && (
        <>
          <div className="usage-charts">
            <UsageChart
              title="Messages per day"
              days={report.perDay}
              measure="messages"
              format={number}
              formatDay={day}
            />
            <UsageChart
              title="Replies per day"
              days={report.perDay}
              measure="replies"
              format={number}
              formatDay={day}
            />
            <UsageChart
              title="Spend per day"
              days={report.perDay}
              measure="spend"
              format={money}
              formatDay={day}
            />
          </div>
          <details className="usage-days">
            <summary>{t('The figures per day, as a table')}</summary>
            <FiguresTable
              caption="Per day"
              first="Day"
              rows={report.perDay.map((item) => ({ key: item.date, name: day(item.date), ...item }))}
              money={money}
              number={number}
            />
          </details>
          <FiguresTable
            caption="Per bot"
            first="Bot"
            rows={report.perBot.map((item) => ({ key: item._id, ...item }))}
            money={money}
            number={number}
          />
          <FiguresTable
            caption="Per member"
            first="Member"
            rows={report.perMember.map((item) => ({ key: item._id, name: item.displayName, ...item }))}
            money={money}
            number={number}
          />
        </>
      )}
    </section>
  );
}
