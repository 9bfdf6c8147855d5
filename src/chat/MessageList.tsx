import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { topicMachine } from '../../machines/topic';
import { Markdown } from '../components/markdown/Markdown';
import { T } from '../i18n/T';
import { useNow } from '../i18n/useNow';
import { useT } from '../i18n/useT';
import { ChatProblem } from './ChatProblem';
import { MessageItem } from './MessageItem';
import { TypingIndicator } from './TypingIndicator';
import { useAutoScroll } from './useAutoScroll';
import { useChatBot } from './useChatBot';

const failedStates = ['replyFailed', 'insufficientBalance', 'creationFailed'] as const;

/**
 * The conversation, newest at the bottom, following the reply unless the user scrolled up (then
 * "Jump to latest" brings them back). A failed reply stays at the end with its error and Retry.
 */
export function MessageList({ chat }: { chat: ActorRefFrom<typeof topicMachine> }) {
  const t = useT();
  const now = useNow();
  const { name } = useChatBot(chat);
  const container = useRef<HTMLDivElement>(null);
  const messages = useSelector(chat, (snapshot) => snapshot.context.messages);
  const typing = useSelector(
    chat,
    (snapshot) => snapshot.matches('creating') || snapshot.matches({ replying: 'waiting' }),
  );
  const streamingText = useSelector(chat, (snapshot) =>
    snapshot.matches({ replying: 'streaming' }) ? snapshot.context.draft : null,
  );
  const replying = useSelector(
    chat,
    (snapshot) => snapshot.matches('replying') || snapshot.matches('creating'),
  );
  const failed = useSelector(chat, (snapshot) => failedStates.some((state) => snapshot.matches(state)));
  const { following, jumpToLatest } = useAutoScroll(
    container,
    `${messages.length}:${streamingText?.length ?? -1}:${typing}:${failed}`,
  );

  return (
    <div className="messages-frame">
      <div ref={container} className="messages" role="log" aria-label={t('Conversation')} aria-live="polite">
        {messages.length === 0 && !typing && (
          <p className="empty">
            <T>Say hello to start the conversation.</T>
          </p>
        )}
        {messages.map((message) => (
          <MessageItem key={message._id} message={message} botName={name} now={now} />
        ))}
        {typing && <TypingIndicator botName={name} />}
        {streamingText !== null && (
          <article className="message bot" aria-busy="true">
            <h3 className="visually-hidden">{name}</h3>
            <Markdown text={streamingText} streaming t={t} />
          </article>
        )}
        {failed && <ChatProblem chat={chat} />}
      </div>
      {replying && !following && (
        <button type="button" className="button small jump-to-latest" onClick={jumpToLatest}>
          <T>Jump to latest</T>
        </button>
      )}
    </div>
  );
}
