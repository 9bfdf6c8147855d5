import { useRef } from 'react';
import type { ChatMessage, MessageStatus } from '../../machines/topic';
import { Markdown } from '../components/markdown/Markdown';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { useAutoScroll } from './useAutoScroll';

/** What a reply that did not complete says under it. */
const statusNotes: Record<Exclude<MessageStatus, 'complete'>, string> = {
  streaming: 'Still being written…',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  failed: 'Failed',
};

interface MessageListProps {
  botName: string;
  messages: ChatMessage[];
  /** The reply being streamed now, if any. */
  streamingText: string | null;
}

/** The conversation, newest at the bottom, following the stream unless the user scrolled up. */
export function MessageList({ botName, messages, streamingText }: MessageListProps) {
  const t = useT();
  const container = useRef<HTMLDivElement>(null);
  useAutoScroll(container, `${messages.length}:${streamingText?.length ?? -1}`);

  return (
    <div ref={container} className="messages" role="log" aria-label={t('Conversation')} aria-live="polite">
      {messages.length === 0 && streamingText === null && (
        <p className="empty">
          <T>Say hello to start the conversation.</T>
        </p>
      )}
      {messages.map((message) => (
        <article key={message._id} className={`message ${message.role}`}>
          <h3 className="visually-hidden">{message.role === 'user' ? t('You') : botName}</h3>
          {message.role === 'user' ? (
            <p className="user-text">{message.text}</p>
          ) : (
            <Markdown text={message.text} streaming={false} t={t} />
          )}
          {message.status !== 'complete' && (
            <p className="message-note">
              <T>{statusNotes[message.status]}</T>
            </p>
          )}
        </article>
      ))}
      {streamingText !== null && (
        <article className="message bot" aria-busy="true">
          <h3 className="visually-hidden">{botName}</h3>
          <Markdown text={streamingText} streaming t={t} />
        </article>
      )}
    </div>
  );
}
