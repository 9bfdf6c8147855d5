import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { ListProblem } from '../ListProblem';
import { TableScroll } from '../TableScroll';
import { useAdmin } from '../useAdmin';
import { KnowledgeDialog } from './KnowledgeDialog';

const notices = {
  create: 'Knowledge base created',
  update: 'Knowledge base saved',
  remove: 'Knowledge base deleted',
} as const;

export const baseAddress = (id: string) => `/admin/knowledge/${encodeURIComponent(id)}`;

/** The organization's knowledge bases: documents its bots search and quote. Create, edit, delete. */
export function KnowledgeScreen() {
  const { knowledge } = useAdmin();
  const t = useT();
  const items = useSelector(knowledge, (snapshot) => snapshot.context.items);
  const list = useSelector(knowledge, (snapshot) => snapshot.value.list);
  const change = useSelector(knowledge, (snapshot) => snapshot.value.change);
  const { editing, target, problem, error, done } = useSelector(knowledge, (snapshot) => snapshot.context);

  useEffect(() => {
    knowledge.send({ type: 'LOAD' });
  }, [knowledge]);

  const dialogOpen = (change === 'editing' || change === 'saving') && editing !== null;
  return (
    <section aria-labelledby="admin-knowledge">
      <div className="admin-heading">
        <h1 id="admin-knowledge">
          <T>Knowledge</T>
        </h1>
        <button
          type="button"
          className="button primary"
          aria-haspopup="dialog"
          onClick={() => knowledge.send({ type: 'EDIT', id: 'new' })}
        >
          <T>New knowledge base</T>
        </button>
      </div>
      <p className="lead">
        <T>Documents your bots search before they answer, and quote with a numbered source.</T>
      </p>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => knowledge.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No knowledge bases yet.</T>
        </p>
      )}
      {items.length > 0 && (
        <TableScroll stacks>
          <table className="admin-table knowledge-table">
            <caption className="visually-hidden">{t('Knowledge bases')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('Name')}</th>
                <th scope="col">{t('Description')}</th>
                <th scope="col">{t('Documents')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('Actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((base) => (
                <tr key={base._id}>
                  <th scope="row">
                    <Link href={baseAddress(base._id)}>
                      <bdi>{base.name}</bdi>
                    </Link>
                  </th>
                  <td data-label={t('Description')}>
                    <bdi>{base.description}</bdi>
                  </td>
                  <td className="count" data-label={t('Documents')}>
                    {base.documents.length}
                  </td>
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        className="button small"
                        aria-haspopup="dialog"
                        aria-label={`${t('Edit')} ${base.name}`}
                        onClick={() => knowledge.send({ type: 'EDIT', id: base._id })}
                      >
                        <T>Edit</T>
                      </button>
                      <button
                        type="button"
                        className="button small danger"
                        aria-label={`${t('Delete')} ${base.name}`}
                        onClick={() => knowledge.send({ type: 'ASK_REMOVE', record: base })}
                      >
                        <T>Delete</T>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Status message={done ? notices[done] : null} />
      {dialogOpen && (
        <KnowledgeDialog
          base={items.find((item) => item._id === editing) ?? null}
          saving={change === 'saving'}
          problem={problem}
          onSave={(values) =>
            knowledge.send({
              type: 'SAVE',
              change:
                editing === 'new' ? { kind: 'create', values } : { kind: 'update', id: editing, values },
            })
          }
          onCancel={() => knowledge.send({ type: 'CANCEL' })}
        />
      )}
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Delete this knowledge base?"
          message="Its documents are deleted, and no bot searches them any more."
          name={target.name}
          confirm="Delete"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => knowledge.send({ type: 'CONFIRM' })}
          onCancel={() => knowledge.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}
