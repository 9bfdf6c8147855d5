import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ModelRecord } from '../../../machines/adminList';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { ListProblem } from '../ListProblem';
import { useAdmin } from '../useAdmin';
import { ModelDialog } from './ModelDialog';

const notices = { create: 'Model added', update: 'Model saved', remove: 'Model deleted' } as const;

/**
 * The organization's model catalogue: the models its bots offer and members may build bots on, where
 * each runs and what it costs. A model a bot offers cannot be deleted (the server says which bots).
 */
export function ModelsScreen() {
  const { models, providers } = useAdmin();
  const t = useT();
  const format = useFormat();
  const items = useSelector(models, (snapshot) => snapshot.context.items);
  const list = useSelector(models, (snapshot) => snapshot.value.list);
  const change = useSelector(models, (snapshot) => snapshot.value.change);
  const { editing, target, problem, error, done } = useSelector(models, (snapshot) => snapshot.context);
  const providerItems = useSelector(providers, (snapshot) => snapshot.context.items);

  useEffect(() => {
    models.send({ type: 'LOAD' });
    // The form offers the organization's providers.
    providers.send({ type: 'LOAD' });
  }, [models, providers]);

  const providerName = (model: ModelRecord) =>
    model.provider === null
      ? t("Server's model server")
      : (providerItems.find((provider) => provider._id === model.provider)?.name ?? model.provider);
  const perMillion = (value: number | undefined) => (value === undefined ? t('None') : format.number(value));
  const dialogOpen = (change === 'editing' || change === 'saving') && editing !== null;
  return (
    <section aria-labelledby="admin-models">
      <div className="admin-heading">
        <h1 id="admin-models">
          <T>Models</T>
        </h1>
        <button
          type="button"
          className="button primary"
          aria-haspopup="dialog"
          onClick={() => models.send({ type: 'EDIT', id: 'new' })}
        >
          <T>Add model</T>
        </button>
      </div>
      <p className="lead">
        <T>The models your bots offer and members may build bots on, with what a reply costs.</T>
      </p>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => models.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No models yet.</T>
        </p>
      )}
      <ul className="card-list" aria-label={t('Models')}>
        {items.map((model) => (
          <li key={model._id} className="card">
            <h2>
              <bdi>{model.name}</bdi>
            </h2>
            <dl className="facts">
              <dt>{t('Provider')}</dt>
              <dd>
                <bdi>{providerName(model)}</bdi>
              </dd>
              <dt>{t('Model')}</dt>
              <dd>
                <code>{model.model}</code>
              </dd>
              <dt>{t('Price per reply')}</dt>
              <dd>{format.number(model.price)}</dd>
              <dt>{t('Price per million input tokens')}</dt>
              <dd>{perMillion(model.inputPrice)}</dd>
              <dt>{t('Price per million output tokens')}</dt>
              <dd>{perMillion(model.outputPrice)}</dd>
              <dt>{t('Context size (tokens)')}</dt>
              <dd>{format.number(model.contextTokens)}</dd>
              <dt>{t('Sees images')}</dt>
              <dd>{t(model.vision ? 'Yes' : 'No')}</dd>
              <dt>{t('Members may build bots on it')}</dt>
              <dd>{t(model.memberBots ? 'Yes' : 'No')}</dd>
            </dl>
            <div className="actions">
              <button
                type="button"
                className="button small"
                aria-haspopup="dialog"
                aria-label={`${t('Edit')} ${model.name}`}
                onClick={() => models.send({ type: 'EDIT', id: model._id })}
              >
                <T>Edit</T>
              </button>
              <button
                type="button"
                className="button small danger"
                aria-label={`${t('Delete')} ${model.name}`}
                onClick={() => models.send({ type: 'ASK_REMOVE', record: model })}
              >
                <T>Delete</T>
              </button>
            </div>
          </li>
        ))}
      </ul>
      <Status message={done ? notices[done] : null} />
      {dialogOpen && (
        <ModelDialog
          model={items.find((item) => item._id === editing) ?? null}
          providers={providerItems}
          saving={change === 'saving'}
          problem={problem}
          onSave={(values) =>
            models.send({
              type: 'SAVE',
              change:
                editing === 'new' ? { kind: 'create', values } : { kind: 'update', id: editing, values },
            })
          }
          onCancel={() => models.send({ type: 'CANCEL' })}
        />
      )}
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Delete this model?"
          message="It leaves the catalogue. A model that a bot offers cannot be deleted."
          name={target.name}
          confirm="Delete"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => models.send({ type: 'CONFIRM' })}
          onCancel={() => models.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}
