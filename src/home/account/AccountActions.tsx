import { useSelector } from '@xstate/react';
import { useId, useRef } from 'react';
import { useActors } from '../../app/ActorsContext';
import { FormError } from '../../components/FormError';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { DeleteAccountDialog } from './DeleteAccountDialog';

/** Logging out here or everywhere, downloading my data, and deleting the account. */
export function AccountActions() {
  const { session, account } = useActors();
  const sessionsId = useId();
  const dataId = useId();
  const deleteButton = useRef<HTMLButtonElement>(null);
  const loggingOut = useSelector(session, (snapshot) => snapshot.matches({ auth: 'loggingOut' }));
  const { sessions, data, deletion } = useSelector(account, (snapshot) => snapshot.value);
  const problems = useSelector(account, (snapshot) => snapshot.context.problems);

  return (
    <>
      <section className="panel-section" aria-labelledby={sessionsId}>
        <h3 id={sessionsId}>
          <T>Sessions</T>
        </h3>
        <div className="actions">
          <button
            type="button"
            className="button small"
            disabled={loggingOut}
            onClick={() => session.send({ type: 'LOGOUT' })}
          >
            <T>Log out</T>
          </button>
          <button
            type="button"
            className="button small"
            disabled={sessions === 'loggingOutEverywhere'}
            onClick={() => account.send({ type: 'LOG_OUT_EVERYWHERE' })}
          >
            <T>Log out everywhere</T>
          </button>
        </div>
        <FormError message={problems.sessions?.message ?? null} />
      </section>
      <section className="panel-section" aria-labelledby={dataId}>
        <h3 id={dataId}>
          <T>Your data</T>
        </h3>
        <div className="actions">
          <button
            type="button"
            className="button small"
            disabled={data === 'exporting'}
            onClick={() => account.send({ type: 'DOWNLOAD_DATA' })}
          >
            <T>Download my data</T>
          </button>
          <button
            ref={deleteButton}
            type="button"
            className="button small danger"
            aria-haspopup="dialog"
            onClick={() => account.send({ type: 'ASK_TO_DELETE' })}
          >
            <T>Delete my account</T>
          </button>
        </div>
        <Status message={data === 'exported' ? 'Your data has been downloaded.' : null} />
        <FormError message={problems.data?.message ?? null} />
        {deletion !== 'closed' && <DeleteAccountDialog returnFocus={deleteButton} />}
      </section>
    </>
  );
}
