import { type FormEvent, type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { focusIsLost } from '../components/focusMainHeading';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

interface ComposerProps {
  streaming: boolean;
  disabled: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line; Stop while a reply streams. It grows
 * with its text up to a limit (set in CSS), then scrolls.
 */
export function Composer({ streaming, disabled, onSend, onStop }: ComposerProps) {
  const t = useT();
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the text is the trigger, the height its measure
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight}px`;
  }, [text]);

  const send = () => {
    if (!text.trim() || disabled || streaming) return;
    onSend(text.trim());
    setText('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  // The Stop button goes when the reply ends: the keyboard goes back to the message box, not to the page.
  const stop = () => {
    box.current?.focus();
    onStop();
  };
  // Stop and Send are the same element, relabelled.
  const button = useRef<HTMLButtonElement>(null);
  const wasStreaming = useRef(streaming);
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (wasStreaming.current && !streaming && (active === button.current || focusIsLost()))
      box.current?.focus();
    wasStreaming.current = streaming;
  }, [streaming]);
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
        ref={box}
        id={id}
        rows={1}
        dir="auto"
        value={text}
        placeholder={t('Write a message…')}
        aria-describedby={`${id}-keys`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        disabled={disabled}
      />
      <span id={`${id}-keys`} className="visually-hidden">
        <T>Enter sends, Shift+Enter starts a new line.</T>
      </span>
      {streaming ? (
        <button ref={button} type="button" className="button" onClick={stop}>
          <T>Stop</T>
        </button>
      ) : (
        <button ref={button} type="submit" className="button primary" disabled={disabled || !text.trim()}>
          <T>Send</T>
        </button>
      )}
    </form>
  );
}
