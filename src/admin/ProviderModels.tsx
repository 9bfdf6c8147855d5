import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo } from 'react';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { useAdmin } from './useAdmin';

/** A provider's models, as its `GET /models` lists them, asked for when the admin opens the list. */
export function ProviderModels({ providerId, name }: { providerId: string; name: string }) {
  const { providerModels, inspect } = useAdmin();
  const t = useT();
  const listId = useId();
  const machine = useMemo(() => providerModels(providerId), [providerModels, providerId]);
  const models = useActorRef(machine, { inspect });
  const state = useSelector(models, (snapshot) => snapshot.value);
  const { data, error } = useSelector(models, (snapshot) => snapshot.context);
  const ids = data ?? [];

  return (
    <div className="provider-models">
      <button
        type="button"
        className="button small"
        aria-expanded={state !== 'idle'}
        aria-controls={listId}
        aria-label={`${t('Models')}: ${name}`}
        disabled={state === 'loading'}
        onClick={() => models.send({ type: state === 'idle' ? 'LOAD' : 'RELOAD' })}
      >
        <T>Models</T>
      </button>
      <div id={listId} aria-live="polite">
        {state === 'loading' && <T>Loading…</T>}
        {state === 'failed' && (
          <p className="field-error" role="alert">
            {t(error ?? 'Something went wrong')}
          </p>
        )}
        {state === 'loaded' &&
          (ids.length ? (
            <ul className="chips">
              {ids.map((id) => (
                <li key={id} className="chip">
                  <code>{id}</code>
                </li>
              ))}
            </ul>
          ) : (
            <T>This provider lists no models.</T>
          ))}
      </div>
    </div>
  );
}
