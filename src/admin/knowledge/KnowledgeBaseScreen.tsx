import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { Link } from 'wouter';
import { type DocumentStatus, isPending } from '../../../machines/knowledgeBase';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { ListProblem } from '../ListProblem';
import { TableScroll } from '../TableScroll';
import { useAdmin } from '../useAdmin';
import { UploadForm } from './UploadForm';

const statusLabels: Record<DocumentStatus, string> = {
  queued: 'Queued',
  indexing: 'Indexing',
  ready: 'Ready',
  failed: 'Failed',
};
const notices = { upload: 'Document uploaded', remove: 'Document removed' } as const;

/**
 * `/admin/knowledge/:id`: a base's documents and how far each is; upload one, remove one. While a
 * document is queued or indexing, the page reads the base again by itself (its machine's watch).
 */
export function KnowledgeBaseScreen({ baseId }: { baseId: string }) {
  const { knowledgeBase, inspect } = useAdmin();
  const t = useT();
  const page = useActorRef(knowledgeBase, { input: { baseId }, inspect });
  const baseState = useSelector(page, (snapshot) => snapshot.value.base);
  const change = useSelector(page, (snapshot) => snapshot.value.change);
  const { base, error, target, problem, done } = useSelector(page, (snapshot) => snapshot.context);
  // A removal's problem shows in its dialog; an upload's next to the file field.
  const [lastAsk, setLastAsk] = useState<'upload' | 'remove'>('upload');
  const uploadProblem = lastAsk === 'upload' && change === 'idle' ? problem : null;
  const pending = base?.documents.some(isPending) ?? false;

  return (
    <section aria-labelledby="knowledge-base">
      <p>
        <Link href="/admin/knowledge">
          <T>All knowledge bases</T>
        </Link>
      </p>
      <h1 id="knowledge-base">{base ? <bdi>{base.name}</bdi> : <T>Knowledge base</T>}</h1>
      {baseState === 'reading' && !base && <Loading />}
      {baseState === 'failed' && <ListProblem error={error} onRetry={() => page.send({ type: 'RETRY' })} />}
      {base && (
        <>
          {base.description && (
            <p className="lead">
              <bdi>{base.description}</bdi>
            </p>
          )}
          <UploadForm
            uploading={change === 'uploading'}
            problem={uploadProblem}
            uploaded={done === 'upload'}
            onUpload={(file) => {
              setLastAsk('upload');
              page.send({ type: 'UPLOAD', file });
            }}
          />
          <h2>
            <T>Documents</T>
          </h2>
          {pending && (
            <p className="muted">
              <T>Documents are being indexed; this page updates by itself.</T>
            </p>
          )}
          {base.documents.length === 0 ? (
            <p className="muted">
              <T>No documents yet.</T>
            </p>
          ) : (
            <TableScroll stacks>
              <table className="admin-table knowledge-table">
                <caption className="visually-hidden">{t('Documents')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('Name')}</th>
                    <th scope="col">{t('Status')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('Actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {base.documents.map((document) => (
                    <tr key={document._id}>
                      <th scope="row">
                        <bdi>{document.name}</bdi>
                      </th>
                      <td className={`document-status ${document.status}`} data-label={t('Status')}>
                        {t(statusLabels[document.status])}
                        {document.status === 'failed' && document.error && (
                          <span className="document-error">: {t(document.error)}</span>
                        )}
                      </td>
                      <td>
                        <button
                          type="button"
                          className="button small danger"
                          aria-label={`${t('Remove')} ${document.name}`}
                          onClick={() => {
                            setLastAsk('remove');
                            page.send({ type: 'ASK_REMOVE', document });
                          }}
                        >
                          <T>Remove</T>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      )}
      <Status message={done ? notices[done] : null} />
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Remove this document?"
          message="Its passages are no longer searched."
          name={target.name}
          confirm="Remove"
          busy={change === 'removing'}
          error={problem}
          onConfirm={() => page.send({ type: 'CONFIRM' })}
          onCancel={() => page.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}
