import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

interface ComposerProps {
  streaming: boolean;
  disabled: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter starts a new line; Stop while a reply streams. */
export function Composer({ streaming, disabled, onSend, onStop }: ComposerProps) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');

  const send = () => {
    if (!text.trim() || disabled || streaming) return;
    onSend(text.trim());
    setText('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor={id} className="composer-label">
        <T>Message</T>
      </label>
      <textarea
        id={id}
        rows={2}
        value={text}
        placeholder={t('Write a message… (Enter to send, Shift+Enter for a new line)')}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        disabled={disabled}
      />
      {streaming ? (
        <button type="button" className="button" onClick={onStop}>
          <T>Stop</T>
        </button>
      ) : (
        <button type="submit" className="button primary" disabled={disabled || !text.trim()}>
          <T>Send</T>
        </button>
      )}
    </form>
  );
}
