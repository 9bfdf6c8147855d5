import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Loading } from '../components/Loading';
import { Status } from '../components/Status';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { ConfirmDialog } from './ConfirmDialog';
import { ListProblem } from './ListProblem';
import { ProviderDialog } from './ProviderDialog';
import { ProviderModels } from './ProviderModels';
import { useAdmin } from './useAdmin';

const notices = { create: 'Provider added', update: 'Provider saved', remove: 'Provider deleted' } as const;

/** The organization's OpenAI-compatible providers: their address, their key's end, their models. */
export function ProvidersScreen() {
  const { providers } = useAdmin();
  const t = useT();
  const items = useSelector(providers, (snapshot) => snapshot.context.items);
  const list = useSelector(providers, (snapshot) => snapshot.value.list);
  const change = useSelector(providers, (snapshot) => snapshot.value.change);
  const { editing, target, problem, error, done } = useSelector(providers, (snapshot) => snapshot.context);

  useEffect(() => {
    providers.send({ type: 'LOAD' });
  }, [providers]);

  const dialogOpen = (change === 'editing' || change === 'saving') && editing !== null;
  return (
    <section aria-labelledby="admin-providers">
      <div className="admin-heading">
        <h1 id="admin-providers">
          <T>Providers</T>
        </h1>
        <button
          type="button"
          className="button primary"
          aria-haspopup="dialog"
          onClick={() => providers.send({ type: 'EDIT', id: 'new' })}
        >
          <T>Add provider</T>
        </button>
      </div>
      <p className="lead">
        <T>
          OpenAI-compatible model servers your bots can use. Keys are stored encrypted and never shown again.
        </T>
      </p>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => providers.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No providers yet.</T>
        </p>
      )}
      <ul className="card-list">
        {items.map((provider) => (
          <li key={provider._id} className="card">
            <h2>
              <bdi>{provider.name}</bdi>
            </h2>
            <dl className="facts">
              <dt>{t('Base URL')}</dt>
              <dd>
                <code>{provider.baseUrl}</code>
              </dd>
              <dt>{t('API key')}</dt>
              <dd>
                <code>{provider.apiKey || t('None')}</code>
              </dd>
            </dl>
            <ProviderModels providerId={provider._id} name={provider.name} />
            <div className="actions">
              <button
                type="button"
                className="button small"
                aria-haspopup="dialog"
                aria-label={`${t('Edit')} ${provider.name}`}
                onClick={() => providers.send({ type: 'EDIT', id: provider._id })}
              >
                <T>Edit</T>
              </button>
              <button
                type="button"
                className="button small danger"
                aria-label={`${t('Delete')} ${provider.name}`}
                onClick={() => providers.send({ type: 'ASK_REMOVE', record: provider })}
              >
                <T>Delete</T>
              </button>
            </div>
          </li>
        ))}
      </ul>
      <Status message={done ? notices[done] : null} />
      {dialogOpen && (
        <ProviderDialog
          provider={items.find((item) => item._id === editing) ?? null}
          saving={change === 'saving'}
          problem={problem}
          onSave={(values) =>
            providers.send({
              type: 'SAVE',
              change:
                editing === 'new' ? { kind: 'create', values } : { kind: 'update', id: editing, values },
            })
          }
          onCancel={() => providers.send({ type: 'CANCEL' })}
        />
      )}
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Delete this provider?"
          message="Its key is deleted. A provider that active bots use cannot be deleted."
          name={target.name}
          confirm="Delete"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => providers.send({ type: 'CONFIRM' })}
          onCancel={() => providers.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}
