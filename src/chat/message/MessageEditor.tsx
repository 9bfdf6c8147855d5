import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { T } from '../../i18n/T';

interface MessageEditorProps {
  text: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}

/** Edits a message in place: Save sends the new text on a new branch, Cancel (or Esc) keeps the old one. */
export function MessageEditor({ text, onSave, onCancel }: MessageEditorProps) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [value, setValue] = useState(text);
  useEffect(() => {
    box.current?.focus();
    box.current?.select();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onSave(value.trim());
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onCancel();
  };

  return (
    <form className="message-editor" onSubmit={submit} onKeyDown={onKeyDown}>
      <label htmlFor={id}>
        <T>Edit message</T>
      </label>
      <textarea
        id={id}
        ref={box}
        dir="auto"
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <span className="message-editor-buttons">
        <button type="submit" className="button small primary" disabled={!value.trim()}>
          <T>Save and send</T>
        </button>
        <button type="button" className="button small" onClick={onCancel}>
          <T>Cancel</T>
        </button>
      </span>
    </form>
  );
}
