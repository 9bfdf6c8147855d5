import { type MouseEvent, memo, useRef, useState } from 'react';
import type { ChatMessage, Citation, MessageStatus, SiblingPosition } from '../../../machines/messageTree';
import { Markdown } from '../../components/markdown/Markdown';
import { RelativeTime } from '../../components/RelativeTime';
import { textDir } from '../../i18n/bidi';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { CitedSources } from './CitedSources';
import { linkCitations } from './citationLinks';
import { MessageActions } from './MessageActions';
import { MessageEditor } from './MessageEditor';
import { MessageFiles } from './MessageFiles';
import { type FeedbackActor, ReplyFeedback } from './ReplyFeedback';
import { SiblingSwitcher } from './SiblingSwitcher';
import { ToolSteps } from './ToolSteps';
import { useTranslatedText } from './useTranslatedText';
import './message.css';

/** What a reply that did not complete says under it. */
const statusNotes: Record<Exclude<MessageStatus, 'complete'>, string> = {
  streaming: 'Still being written…',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  failed: 'Failed',
};

/** What the chat does for a message; stable for the chat's life, so messages render once. */
export interface MessageCommands {
  edit: (messageId: string, text: string) => void;
  /** Another reply in place of one; `model`: written by another of the bot's models. */
  regenerate: (messageId: string, model?: string) => void;
  showSibling: (messageId: string) => void;
  /** Opens a passage the reply cites. */
  showCitation: (messageId: string, citation: Citation) => void;
}

interface MessageItemProps {
  message: ChatMessage;
  botName: string;
  /** The time relative timestamps count from. */
  now: number;
  position: SiblingPosition;
  /** Edits, new replies and other versions wait while a reply is being written. */
  canChange: boolean;
  /** The conversation's "Translate all". */
  translateAll: boolean;
  /** The bot's models when it offers more than one ("Regenerate with…"). */
  models: { _id: string; name: string }[] | null;
  commands: MessageCommands;
  /** A stored reply's thumbs. */
  feedback?: FeedbackActor;
}

/**
 * One message: who wrote it, the tools a reply called, its text (a reply as markdown), when, how a reply
 * that did not complete ended, its versions, and what can be done with it.
 */
export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  const { message, botName, now, position, canChange, commands } = props;
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [translate, setTranslate] = useState<{ on: boolean; under: boolean } | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  // A message's own choice holds until "Translate all" is switched: that applies to every message.
  const wanted = translate && translate.under === props.translateAll ? translate.on : props.translateAll;
  const translation = useTranslatedText(message.text, wanted);

  const citations = message.citations ?? [];
  const showCitation = (citation: Citation) => commands.showCitation(message._id, citation);
  // A `[n]` marker is a link in the reply's markdown: its click (or Enter) opens the passage.
  const openMarker = (event: MouseEvent) => {
    const href = (event.target as Element).closest('a')?.getAttribute('href') ?? '';
    const cited = citations.find((citation) => `#cite-${citation.n}` === href);
    if (!cited) return;
    event.preventDefault();
    showCitation(cited);
  };

  const stopEditing = () => {
    setEditing(false);
    // Back to the Edit button the editor opened from.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <article className={`message ${message.role}`} data-message-id={message._id}>
      <h2 className="visually-hidden">{message.role === 'user' ? t('You') : botName}</h2>
      {message.steps?.length ? <ToolSteps steps={message.steps} /> : null}
      {editing ? (
        <MessageEditor
          text={message.text}
          onCancel={stopEditing}
          onSave={(text) => {
            setEditing(false);
            commands.edit(message._id, text);
          }}
        />
      ) : message.role === 'user' ? (
        <p className="user-text" dir={textDir(translation.shown)}>
          {translation.shown}
        </p>
      ) : citations.length ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the markers are links; Enter on one is a click
        // biome-ignore lint/a11y/noStaticElementInteractions: it only hears its markers' clicks
        <div onClick={openMarker}>
          <Markdown text={linkCitations(translation.shown, citations)} streaming={false} t={t} />
        </div>
      ) : (
        <Markdown text={translation.shown} streaming={false} t={t} />
      )}
      {citations.length && !editing ? <CitedSources citations={citations} onShow={showCitation} /> : null}
      {message.files?.length ? (
        <MessageFiles
          files={message.files}
          label={message.role === 'user' ? 'Attached files' : 'Generated images'}
        />
      ) : null}
      {translation.state === 'translating' && (
        <p className="message-note" role="status">
          <T>Translating…</T>
        </p>
      )}
      {translation.state === 'unavailable' && (
        <p className="message-note" role="status">
          <T>No translation is available for this message.</T>
        </p>
      )}
      <footer className="message-meta">
        {message.createdAt && <RelativeTime iso={message.createdAt} now={now} />}
        {message.status !== 'complete' && (
          <span className="message-note">
            <T>{statusNotes[message.status]}</T>
          </span>
        )}
        <SiblingSwitcher position={position} disabled={!canChange} onShow={commands.showSibling} />
        {!editing && (
          <MessageActions
            id={message._id}
            role={message.role}
            text={message.text}
            canChange={canChange}
            translation={translation.offered ? translation.state : null}
            onEdit={() => setEditing(true)}
            onRegenerate={(model) => commands.regenerate(message._id, model)}
            models={props.models}
            onToggleTranslation={() => setTranslate({ on: !wanted, under: props.translateAll })}
            editRef={editButton}
          />
        )}
        {props.feedback && <ReplyFeedback actor={props.feedback} />}
      </footer>
    </article>
  );
});
