import { memo } from 'react';
import type { ChatMessage, MessageStatus } from '../../machines/topic';
import { Markdown } from '../components/markdown/Markdown';
import { RelativeTime } from '../components/RelativeTime';
import { textDir } from '../i18n/bidi';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

/** What a reply that did not complete says under it. */
const statusNotes: Record<Exclude<MessageStatus, 'complete'>, string> = {
  streaming: 'Still being written…',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  failed: 'Failed',
};

interface MessageItemProps {
  message: ChatMessage;
  botName: string;
  /** The time relative timestamps count from. */
  now: number;
}

/** One message: who wrote it, its text (a reply as markdown), when, and how a reply that did not complete ended. */
export const MessageItem = memo(function MessageItem({ message, botName, now }: MessageItemProps) {
  const t = useT();
  return (
    <article className={`message ${message.role}`}>
      <h3 className="visually-hidden">{message.role === 'user' ? t('You') : botName}</h3>
      {message.role === 'user' ? (
        <p className="user-text" dir={textDir(message.text)}>
          {message.text}
        </p>
      ) : (
        <Markdown text={message.text} streaming={false} t={t} />
      )}
      {(message.createdAt || message.status !== 'complete') && (
        <p className="message-meta">
          {message.createdAt && <RelativeTime iso={message.createdAt} now={now} />}
          {message.status !== 'complete' && (
            <span className="message-note">
              <T>{statusNotes[message.status]}</T>
            </span>
          )}
        </p>
      )}
    </article>
  );
});
