import { useSelector } from '@xstate/react';
import { type FormEvent, useId, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { botEditorMachine } from '../../../machines/botEditor';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

type Editor = ActorRefFrom<typeof botEditorMachine>;

/** "Try it": a chat with the saved bot, charged to nobody, its reply streamed in as it is written. */
export function TryChat({ editor }: { editor: Editor }) {
  const t = useT();
  const headingId = useId();
  const inputId = useId();
  const [text, setText] = useState('');
  const { botId, transcript, tryError } = useSelector(editor, (snapshot) => snapshot.context);
  const replying = useSelector(editor, (snapshot) => snapshot.matches({ tryOut: 'replying' }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    editor.send({ type: 'SEND_TRY', text });
    setText('');
  };

  return (
    <section className="try-chat" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <T>Try it</T>
      </h2>
      {botId === null ? (
        <p className="muted">
          <T>Save the bot to try it out.</T>
        </p>
      ) : (
        <>
          <p className="field-hint">
            <T>Replies here are free and use the saved settings.</T>
          </p>
          <ol className="try-transcript" aria-live="polite" aria-busy={replying}>
            {transcript.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the transcript only grows at its end
              <li key={index} className={`try-line ${line.role}`}>
                <span className="visually-hidden">{line.role === 'user' ? t('You') : t('Bot')}: </span>
                {line.text || (line.role === 'bot' && replying ? '…' : '')}
              </li>
            ))}
          </ol>
          <FormError message={tryError} />
          <form className="try-composer" onSubmit={submit}>
            <label htmlFor={inputId}>{t('Message to try')}</label>
            <div className="field-row">
              <input id={inputId} value={text} onChange={(event) => setText(event.target.value)} />
              {replying ? (
                <button type="button" className="button" onClick={() => editor.send({ type: 'STOP_TRY' })}>
                  <T>Stop</T>
                </button>
              ) : (
                <button type="submit" className="button primary" disabled={!text.trim()}>
                  <T>Send</T>
                </button>
              )}
            </div>
          </form>
          {transcript.length > 0 && !replying && (
            <button type="button" className="button small" onClick={() => editor.send({ type: 'CLEAR_TRY' })}>
              <T>Clear</T>
            </button>
          )}
        </>
      )}
    </section>
  );
}
