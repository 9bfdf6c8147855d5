import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { SelectField } from '../../admin/fields/SelectField';
import { useWorkspace } from '../../app/useWorkspace';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';

/**
 * Import conversations: the export of ChatGPT (conversations.json or its .zip) or of Claude, optionally
 * into a project, with the upload's progress, then "Importing…" and the result.
 */
export function ImportSection() {
  const { personal, inspect } = useWorkspace();
  const actor = useActorRef(personal.importer, { inspect });
  const t = useT();
  const format = useFormat();
  const headingId = useId();
  const fileId = useId();
  const progressId = useId();
  const input = useRef<HTMLInputElement>(null);
  const snapshot = useSelector(actor, (state) => state);
  const { progress, result, error, projects } = snapshot.context;
  const [project, setProject] = useState('');
  const sending = snapshot.matches('sending');
  const importing = snapshot.matches({ sending: 'importing' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0] ?? null;
    actor.send({ type: 'IMPORT', file, name: file?.name ?? '', project: project || null });
  };

  return (
    <section className="panel-section" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <T>Import conversations</T>
      </h3>
      <form className="form compact" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor={fileId}>
            <T>Export file (.json or .zip)</T>
          </label>
          <input
            ref={input}
            id={fileId}
            type="file"
            accept=".json,.zip,application/json,application/zip"
            aria-describedby={`${fileId}-hint`}
          />
          <p id={`${fileId}-hint`} className="field-hint">
            {t(
              "ChatGPT's conversations.json or the .zip that holds it, or Claude's conversations.json. Importing a file again adds nothing twice.",
            )}
          </p>
        </div>
        {projects.length > 0 && (
          <SelectField
            label="Into a project (optional)"
            value={project}
            onChange={(event) => setProject(event.target.value)}
            options={[
              { value: '', label: 'No project' },
              ...projects.map((item) => ({ value: item._id, label: item.name, raw: true })),
            ]}
          />
        )}
        <button type="submit" className="button small primary" disabled={sending}>
          <T>Import</T>
        </button>
        {sending && (
          <div className="import-progress">
            <span id={progressId}>
              {importing ? t('Importing…') : `${t('Uploading')} ${format.percent(progress)}`}
            </span>
            {importing ? (
              <progress aria-labelledby={progressId} />
            ) : (
              <progress aria-labelledby={progressId} max={1} value={progress}>
                {format.percent(progress)}
              </progress>
            )}
          </div>
        )}
        <FormError message={error} />
        <p className="status" role="status">
          {result
            ? (result.imported === 1
                ? t('1 conversation imported, {skipped} already there')
                : t('{imported} conversations imported, {skipped} already there')
              )
                .replace('{imported}', format.number(result.imported))
                .replace('{skipped}', format.number(result.skipped))
            : ''}
        </p>
        {result && result.imported > 0 && (
          <p>
            <Link href="/list">
              <T>See your conversations</T>
            </Link>
          </p>
        )}
      </form>
    </section>
  );
}
