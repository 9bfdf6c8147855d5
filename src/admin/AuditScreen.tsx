import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { FormError } from '../components/FormError';
import { Loading } from '../components/Loading';
import { T } from '../i18n/T';
import { useFormat } from '../i18n/useFormat';
import { useT } from '../i18n/useT';
import { ListProblem } from './ListProblem';
import { TableScroll } from './TableScroll';
import { useAdmin } from './useAdmin';

/** A value before or after a change, compact: nothing, a word, or its fields. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'object') return String(value);
  return Object.entries(value)
    .map(
      ([key, item]) =>
        `${key}: ${typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item)}`,
    )
    .join(', ');
}

/** Every admin action, newest first: when, who, what, on what, and the change it made. */
export function AuditScreen() {
  const { audit } = useAdmin();
  const t = useT();
  const format = useFormat();
  const items = useSelector(audit, (snapshot) => snapshot.context.items);
  const list = useSelector(audit, (snapshot) => snapshot.value.list);
  const { next, error } = useSelector(audit, (snapshot) => snapshot.context);

  useEffect(() => {
    audit.send({ type: 'LOAD' });
  }, [audit]);

  return (
    <section aria-labelledby="admin-audit">
      <h1 id="admin-audit">
        <T>Audit log</T>
      </h1>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => audit.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>Nothing has been changed yet.</T>
        </p>
      )}
      {items.length > 0 && (
        <TableScroll>
          <table className="admin-table audit-table">
            <thead>
              <tr>
                <th scope="col">{t('When')}</th>
                <th scope="col">{t('Who')}</th>
                <th scope="col">{t('Action')}</th>
                <th scope="col">{t('Target')}</th>
                <th scope="col">{t('Before → after')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry._id}>
                  <td>
                    <time dateTime={entry.at}>{format.dateTime(new Date(entry.at))}</time>
                  </td>
                  <td>
                    <bdi>{entry.actorName || entry.actor}</bdi>
                  </td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    <code className="target">{entry.target ?? '—'}</code>
                  </td>
                  <td className="change">
                    <bdi>{describe(entry.before)}</bdi> → <bdi>{describe(entry.after)}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {next !== null && (
        <button
          type="button"
          className="button small load-more"
          disabled={list === 'loadingMore'}
          onClick={() => audit.send({ type: 'LOAD_MORE' })}
        >
          {list === 'loadingMore' ? t('Loading…') : t('Load more')}
        </button>
      )}
      {list === 'loaded' && <FormError message={error} />}
    </section>
  );
}
