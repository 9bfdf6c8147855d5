import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { AuditEntry } from '../../machines/adminList';
import { FormError } from '../components/FormError';
import { Loading } from '../components/Loading';
import { T } from '../i18n/T';
import { useFormat } from '../i18n/useFormat';
import { useT } from '../i18n/useT';
import { type AuditChange, changesOf, fieldLabel, readableValue } from './auditChanges';
import { ListProblem } from './ListProblem';
import { TableScroll } from './TableScroll';
import { useAdmin } from './useAdmin';

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
        <TableScroll stacks>
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
                  <td data-label={t('When')}>
                    <time dateTime={entry.at}>{format.dateTime(new Date(entry.at))}</time>
                  </td>
                  <td data-label={t('Who')}>
                    <bdi>{entry.actorName || entry.actor}</bdi>
                  </td>
                  <td data-label={t('Action')}>
                    <code>{entry.action}</code>
                  </td>
                  <td data-label={t('Target')}>
                    {entry.target && Object.hasOwn(entry.names, entry.target) ? (
                      <bdi>{entry.names[entry.target]}</bdi>
                    ) : (
                      <code className="target">{entry.target ?? '—'}</code>
                    )}
                  </td>
                  <td className="change" data-label={t('Before → after')}>
                    <Changes entry={entry} />
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

/** An entry's change, a line per field: its name, and its value before → after (or the one it has). */
function Changes({ entry }: { entry: AuditEntry }) {
  const t = useT();
  const format = useFormat();
  const changes = changesOf(entry.before, entry.after);
  if (changes.length === 0) return '—';
  const value = (change: AuditChange, side: 'before' | 'after') =>
    readableValue(change[side], change.field, { names: entry.names, t, number: format.number });
  return (
    <ul className="audit-changes">
      {changes.map((change) => (
        <li key={change.field}>
          <span className="audit-field">{fieldLabel(change.field, t)}:</span>{' '}
          {'before' in change && <bdi>{value(change, 'before')}</bdi>}
          {'before' in change && 'after' in change && ' → '}
          {'after' in change && <bdi>{value(change, 'after')}</bdi>}
        </li>
      ))}
    </ul>
  );
}
