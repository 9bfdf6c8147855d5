import { useSelector } from '@xstate/react';
import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { ActorRefFrom } from 'xstate';
import type { attachmentsMachine } from '../../machines/attachments';
import type { MessageFile } from '../../machines/messageTree';
import { focusIsLost } from '../components/focusMainHeading';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { AttachButton } from './attachments/AttachButton';
import { AttachmentList } from './attachments/AttachmentList';
import type { ComboboxState } from './slash/SlashMenu';
import { VoiceInput } from './voice/VoiceInput';

// The / menu's code loads when a message first starts with /.
const SlashMenu = lazy(() => import('./slash/SlashMenu'));

type Attachments = ActorRefFrom<typeof attachmentsMachine>;

interface ComposerProps {
  streaming: boolean;
  disabled: boolean;
  attachments: Attachments;
  /** A message the server refused before storing it: its text and files come back here. */
  returned: { text: string; files: MessageFile[] } | null;
  /** Why the server refused it, shown above the message box. */
  problem: string | null;
  onSend: (text: string, files: MessageFile[]) => void;
  onStop: () => void;
  /** Switches for the next message (e.g. "Search the web"), under the box. */
  options?: ReactNode;
}

/** What Send waits for, in words, by the state of the files. */
const waitReasons = {
  uploading: 'Send waits until the files are uploaded.',
  needsAttention: 'Retry or remove the file that could not be uploaded.',
} as const;

/**
 * The message box: Enter sends, Shift+Enter starts a new line; Stop while a reply streams. It grows
 * with its text up to a limit (set in CSS), then scrolls. Files come by the paperclip, by pasting
 * and by dropping them on the chat; Send waits until every one is uploaded. A `/` at its start opens
 * the menu of saved prompts (the box is its combobox).
 */
export function Composer({
  streaming,
  disabled,
  attachments,
  returned,
  problem,
  onSend,
  onStop,
  options,
}: ComposerProps) {
  const t = useT();
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  // Once loaded, the / menu stays: it opens and closes with the text.
  const [slashUsed, setSlashUsed] = useState(false);
  if (!slashUsed && text.startsWith('/')) setSlashUsed(true);
  const menuKeys = useRef<((event: KeyboardEvent<HTMLTextAreaElement>) => boolean) | null>(null);
  const [combobox, setCombobox] = useState<ComboboxState>({ expanded: false, active: undefined });
  const onCombobox = useCallback(
    (state: ComboboxState) =>
      setCombobox((before) =>
        before.expanded === state.expanded && before.active === state.active ? before : state,
      ),
    [],
  );
  // A picked prompt replaces the `/command`; the caret goes to its end, ready to edit or send.
  const insert = useCallback((prompt: string) => {
    setText(prompt);
    requestAnimationFrame(() => {
      const element = box.current;
      element?.focus();
      element?.setSelectionRange(prompt.length, prompt.length);
    });
  }, []);
  const waiting = useSelector(attachments, (snapshot) =>
    snapshot.matches('uploading')
      ? 'uploading'
      : snapshot.matches('needsAttention')
        ? 'needsAttention'
        : null,
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: the text is the trigger, the height its measure
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight}px`;
  }, [text]);

  // A refused message comes back whole: its text, and its files (still on the server).
  useEffect(() => {
    if (!returned) return;
    setText(returned.text);
    if (returned.files.length) attachments.send({ type: 'RESTORE', files: returned.files });
  }, [returned, attachments]);

  const send = () => {
    if (!text.trim() || disabled || streaming || waiting) return;
    const snapshot = attachments.getSnapshot();
    const files = snapshot.context.files.flatMap((entry) => (entry.file ? [entry.file] : []));
    onSend(text.trim(), files);
    attachments.send({ type: 'CLEAR' });
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
    if (menuKeys.current?.(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  // Pictures pasted from the clipboard are attached; pasted text goes in the box as usual.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (!files.length) return;
    event.preventDefault();
    attachments.send({ type: 'ADD', files: files.map(picked) });
  };

  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor={id} className="composer-label">
        <T>Message</T>
      </label>
      {problem && (
        <p className="error-box composer-problem" role="alert">
          {t(problem)}
        </p>
      )}
      <AttachmentList attachments={attachments} />
      {slashUsed && (
        <Suspense fallback={null}>
          <SlashMenu
            text={text}
            listId={`${id}-prompts`}
            box={box}
            keys={menuKeys}
            onCombobox={onCombobox}
            onInsert={insert}
          />
        </Suspense>
      )}
      <AttachButton
        disabled={disabled}
        onFiles={(files) => attachments.send({ type: 'ADD', files: files.map(picked) })}
      />
      <VoiceInput disabled={disabled || streaming} setText={setText} onSend={onSend} />
      <textarea
        ref={box}
        id={id}
        rows={1}
        dir="auto"
        value={text}
        placeholder={t('Write a message…')}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={combobox.expanded}
        aria-controls={combobox.expanded ? `${id}-prompts` : undefined}
        aria-activedescendant={combobox.active}
        aria-describedby={`${id}-keys`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        disabled={disabled}
      />
      <span id={`${id}-keys`} className="visually-hidden">
        <T>Enter sends, Shift+Enter starts a new line.</T>{' '}
        <T>Type / at the start of a message to pick a saved prompt.</T>
      </span>
      {streaming ? (
        <button ref={button} type="button" className="button" onClick={stop} data-shortcut="stop">
          <T>Stop</T>
        </button>
      ) : (
        <button
          ref={button}
          type="submit"
          className="button primary"
          disabled={disabled || !text.trim() || waiting !== null}
          aria-describedby={waiting ? `${id}-waiting` : undefined}
        >
          <T>Send</T>
        </button>
      )}
      {options}
      {waiting && (
        <p id={`${id}-waiting`} className="composer-waiting">
          {t(waitReasons[waiting])}
        </p>
      )}
    </form>
  );
}

/** A browser File as the attachments machine takes it: its name, type, size and bytes. */
export const picked = (file: File) => ({ name: file.name, type: file.type, size: file.size, source: file });
