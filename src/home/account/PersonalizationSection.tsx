import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { maxInstructions } from '../../../machines/personalization';
import { CheckboxField } from '../../admin/fields/CheckboxField';
import { TextAreaField } from '../../admin/fields/TextAreaField';
import { ListProblem } from '../../admin/ListProblem';
import { useWorkspace } from '../../app/useWorkspace';
import { FormError } from '../../components/FormError';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/**
 * Profile → Personalization: custom instructions every model bot is given, and "Use memory". When the
 * organization has memory off, the switch gives way to a sentence saying so.
 */
export function PersonalizationSection() {
  const { personal, organizationDetails, inspect } = useWorkspace();
  const actor = useActorRef(personal.personalization, { inspect });
  const t = useT();
  const headingId = useId();
  const snapshot = useSelector(actor, (state) => state);
  const memoryOn = useSelector(organizationDetails, (state) => state.context.data?.memory ?? true);
  const { instructions, problem } = snapshot.context;
  const [text, setText] = useState('');
  // The text as stored, once loaded.
  useEffect(() => setText(instructions.text), [instructions.text]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SAVE', text });
  };
  const loading = snapshot.matches('loading');

  return (
    <section className="panel-section" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <T>Personalization</T>
      </h3>
      {loading && (
        <p role="status">
          <T>Loading…</T>
        </p>
      )}
      {snapshot.matches('failed') && (
        <ListProblem error={problem?.message ?? null} onRetry={() => actor.send({ type: 'RETRY' })} />
      )}
      {!loading && !snapshot.matches('failed') && (
        <form className="form compact" noValidate onSubmit={submit}>
          <TextAreaField
            label="Custom instructions"
            hint="What Parley should know about you, and how to answer. Every model bot is given them."
            rows={5}
            value={text}
            error={problem?.field === 'text' ? problem.message : undefined}
            counter={maxInstructions}
            onChange={(event) => setText(event.target.value)}
          />
          <FormError message={problem?.field === null ? problem.message : null} />
          <button type="submit" className="button small primary" disabled={snapshot.matches('saving')}>
            {snapshot.matches('saving') ? t('Saving…') : t('Save')}
          </button>
          <Status message={snapshot.matches('saved') ? 'Saved' : null} />
          {memoryOn ? (
            <CheckboxField
              label="Use memory"
              role="switch"
              hint="Model bots are given your memories, and may save new ones."
              checked={instructions.useMemory}
              disabled={snapshot.matches('switching')}
              onChange={(event) => actor.send({ type: 'SET_MEMORY', on: event.target.checked })}
            />
          ) : (
            <p className="field-hint">
              {t(
                'Your organization has turned memory off: nothing is saved or used. Your memories are kept until you delete them.',
              )}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
