import { useSelector } from '@xstate/react';
import { useMemo, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { citationsMachine } from '../../machines/citations';
import { type ChatMessage, streamingReply, type topicMachine } from '../../machines/topic';
import { T } from '../i18n/T';
import { useNow } from '../i18n/useNow';
import { useT } from '../i18n/useT';
import { ChatProblem } from './ChatProblem';
import { CitationDialog } from './message/CitationDialog';
import { LiveReply } from './message/LiveReply';
import { type MessageCommands, MessageItem } from './message/MessageItem';
import { ReplyEndActions } from './message/ReplyEndActions';
import { TypingIndicator } from './TypingIndicator';
import { useAutoScroll } from './useAutoScroll';
import { useChatBot } from './useChatBot';
import { useStablePositions } from './useStablePositions';

const failedStates = ['replyFailed', 'insufficientBalance', 'creationFailed'] as const;
const endedEarly = new Set<ChatMessage['status']>(['stopped', 'interrupted', 'failed']);
/** What "Continue" sends: the bot goes on from where its reply ended. */
const continueText = 'Continue';

/**
 * The conversation, newest at the bottom, following the reply unless the user scrolled up (then
 * "Jump to latest" brings them back). A failed reply stays at the end with its error and Retry.
 */
export function MessageList({
  chat,
  citations,
  translateAll,
}: {
  chat: ActorRefFrom<typeof topicMachine>;
  /** The panel that shows a cited passage. */
  citations: ActorRefFrom<typeof citationsMachine>;
  translateAll: boolean;
}) {
  const t = useT();
  const now = useNow();
  const { name } = useChatBot(chat);
  const container = useRef<HTMLDivElement>(null);
  const messages = useSelector(chat, (snapshot) => snapshot.context.messages);
  const tree = useSelector(chat, (snapshot) => snapshot.context.topic?.messages ?? snapshot.context.messages);
  const live = useSelector(chat, (snapshot) => snapshot.matches('live'));
  // The bot types until the first words of its reply, or its first tool step, show.
  const typing = useSelector(chat, (snapshot) => {
    if (snapshot.matches('creating')) return true;
    if (streamingReply(snapshot.context)?.steps?.length) return false;
    return (
      snapshot.matches({ live: { stream: { replying: 'waiting' } } }) ||
      (snapshot.matches({ live: { stream: { attached: 'attaching' } } }) && snapshot.context.draft === '')
    );
  });
  const canChange = useSelector(
    chat,
    (snapshot) => snapshot.matches('ready') || snapshot.matches('replyFailed'),
  );
  const ready = useSelector(chat, (snapshot) => snapshot.matches('ready'));
  const failed = useSelector(chat, (snapshot) => failedStates.some((state) => snapshot.matches(state)));
  const { following, jumpToLatest, keepFollowing } = useAutoScroll(
    container,
    `${messages.length}:${typing}:${failed}`,
  );

  const positions = useStablePositions(messages, tree);
  const commands = useMemo<MessageCommands>(
    () => ({
      edit: (messageId, text) => chat.send({ type: 'EDIT', messageId, text }),
      regenerate: (messageId) => chat.send({ type: 'REGENERATE', messageId }),
      showSibling: (messageId) => chat.send({ type: 'SHOW_SIBLING', messageId }),
      showCitation: (messageId, citation) => citations.send({ type: 'SHOW_CITATION', messageId, citation }),
    }),
    [chat, citations],
  );
  const shownCitation = useSelector(citations, (snapshot) => snapshot.context.shown);
  const last = messages.at(-1);
  const stoppedShort = ready && last?.role === 'bot' && endedEarly.has(last.status) ? last : null;

  return (
    <div className="messages-frame">
      <div ref={container} className="messages" role="log" aria-label={t('Conversation')} aria-live="polite">
        {messages.length === 0 && !typing && (
          <p className="empty">
            <T>Say hello to start the conversation.</T>
          </p>
        )}
        {messages.map((message) =>
          message.status === 'streaming' && live ? (
            typing ? null : (
              <LiveReply key={message.key ?? message._id} chat={chat} botName={name} onGrow={keepFollowing} />
            )
          ) : (
            <MessageItem
              key={message.key ?? message._id}
              message={message}
              botName={name}
              now={now}
              position={positions.get(message._id) ?? { index: 1, count: 1, previous: null, next: null }}
              canChange={canChange}
              translateAll={translateAll}
              commands={commands}
            />
          ),
        )}
        {typing && <TypingIndicator botName={name} />}
        {stoppedShort && (
          <ReplyEndActions
            onContinue={() => chat.send({ type: 'SEND', text: continueText })}
            onRetry={() => commands.regenerate(stoppedShort._id)}
          />
        )}
        {failed && <ChatProblem chat={chat} />}
      </div>
      {shownCitation && (
        <CitationDialog citation={shownCitation.citation} onClose={() => citations.send({ type: 'CLOSE' })} />
      )}
      {live && !following && (
        <button type="button" className="button small jump-to-latest" onClick={jumpToLatest}>
          <T>Jump to latest</T>
        </button>
      )}
    </div>
  );
}
