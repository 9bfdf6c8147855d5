import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { type ActorRefFrom, createActor, type SnapshotFrom } from 'xstate';
import type { citationsMachine } from '../../machines/citations';
import { type ChatMessage, isPending, streamingReply } from '../../machines/messageTree';
import type { topicMachine } from '../../machines/topic';
import { useWorkspace } from '../app/useWorkspace';
import { T } from '../i18n/T';
import { useNow } from '../i18n/useNow';
import { useT } from '../i18n/useT';
import { ChatProblem } from './ChatProblem';
import { CitationDialog } from './message/CitationDialog';
import { LiveReply } from './message/LiveReply';
import { type MessageCommands, MessageItem } from './message/MessageItem';
import { ReplyEndActions } from './message/ReplyEndActions';
import type { FeedbackActor } from './message/ReplyFeedback';
import { TypingIndicator } from './TypingIndicator';
import { useAutoScroll } from './useAutoScroll';
import { useChatBot } from './useChatBot';
import { useStablePositions } from './useStablePositions';

const failedStates = ['replyFailed', 'insufficientBalance', 'creationFailed'] as const;
type TopicSnapshot = SnapshotFrom<typeof topicMachine>;

/** The bot types until the first words of its reply, or its first tool step, show. */
function isTyping(snapshot: TopicSnapshot) {
  if (snapshot.matches('creating')) return true;
  if (streamingReply(snapshot.context)?.steps?.length) return false;
  return (
    snapshot.matches({ live: { stream: { replying: 'waiting' } } }) ||
    (snapshot.matches({ live: { stream: { attached: 'attaching' } } }) && snapshot.context.draft === '')
  );
}

/**
 * How the reply being written shows: as written so far (while it streams, and while Stop is on its
 * way: the server keeps that much), not yet (the bot types), or as stored once it has ended. A reply
 * that goes on shows what it had while the bot types the rest.
 */
function writingShown(snapshot: TopicSnapshot): 'live' | 'notYet' | 'stored' {
  const drafted = snapshot.context.draft !== '';
  if (snapshot.matches('stopping')) return drafted ? 'live' : 'notYet';
  if (!snapshot.matches('live')) return 'stored';
  return isTyping(snapshot) && !drafted ? 'notYet' : 'live';
}

/**
 * The thumbs of each stored reply of the chat, one actor per reply for as long as the chat is on screen:
 * a reply shown again (another branch, after Continue) shows what was given since it was read.
 */
function useFeedbackActors(chat: ActorRefFrom<typeof topicMachine>) {
  const { feedback, inspect } = useWorkspace();
  const topicId = useSelector(chat, (snapshot) => snapshot.context.topicId);
  const actors = useRef(new Map<string, FeedbackActor>());
  return useCallback(
    (message: ChatMessage) => {
      if (message.role !== 'bot' || !topicId || isPending(message._id)) return undefined;
      let actor = actors.current.get(message._id);
      if (!actor) {
        actor = createActor(feedback, {
          input: { topicId, messageId: message._id, feedback: message.feedback ?? null },
          inspect,
        }).start();
        actors.current.set(message._id, actor);
      }
      return actor;
    },
    [feedback, inspect, topicId],
  );
}

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
  const { bot, name } = useChatBot(chat);
  // "Regenerate with…" where the bot offers a choice of models.
  const models = bot?.models && bot.models.length > 1 ? bot.models : null;
  const view = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const messages = useSelector(chat, (snapshot) => snapshot.context.messages);
  const tree = useSelector(chat, (snapshot) => snapshot.context.topic?.messages ?? snapshot.context.messages);
  const writing = useSelector(chat, writingShown);
  const typing = useSelector(chat, isTyping);
  const request = useSelector(chat, (snapshot) => snapshot.context.request);
  const canChange = useSelector(
    chat,
    (snapshot) => snapshot.matches('ready') || snapshot.matches('replyFailed'),
  );
  const failed = useSelector(chat, (snapshot) => failedStates.some((state) => snapshot.matches(state)));
  const { following, jumpToLatest } = useAutoScroll(view, content);
  // A reply the person asks for (a message sent, edited, a reply asked again or to go on) is followed.
  useEffect(() => {
    if (request) jumpToLatest();
  }, [request, jumpToLatest]);

  const positions = useStablePositions(messages, tree);
  const feedbackOf = useFeedbackActors(chat);
  const commands = useMemo<MessageCommands>(
    () => ({
      edit: (messageId, text) => chat.send({ type: 'EDIT', messageId, text }),
      regenerate: (messageId, model) =>
        chat.send(model ? { type: 'REGENERATE', messageId, model } : { type: 'REGENERATE', messageId }),
      showSibling: (messageId) => chat.send({ type: 'SHOW_SIBLING', messageId }),
      showCitation: (messageId, citation) => citations.send({ type: 'SHOW_CITATION', messageId, citation }),
    }),
    [chat, citations],
  );
  const shownCitation = useSelector(citations, (snapshot) => snapshot.context.shown);
  // The last reply ended early: it can go on (Continue), or be asked for again (Retry).
  const stoppedShort = useSelector(chat, (snapshot) => {
    const last = snapshot.context.messages.at(-1);
    return last && snapshot.can({ type: 'CONTINUE', messageId: last._id }) ? last : null;
  });

  return (
    <div className="messages-frame">
      <div ref={view} className="messages-view" role="log" aria-label={t('Conversation')} aria-live="polite">
        <div ref={content} className="messages">
          {messages.length === 0 && !typing && (
            <p className="empty">
              <T>Say hello to start the conversation.</T>
            </p>
          )}
          {messages.map((message) =>
            message.status === 'streaming' && writing !== 'stored' ? (
              writing === 'live' && <LiveReply key={message.key ?? message._id} chat={chat} botName={name} />
            ) : (
              <MessageItem
                key={message.key ?? message._id}
                message={message}
                botName={name}
                now={now}
                position={positions.get(message._id) ?? { index: 1, count: 1, previous: null, next: null }}
                canChange={canChange}
                translateAll={translateAll}
                models={models}
                commands={commands}
                feedback={feedbackOf(message)}
              />
            ),
          )}
          {typing && <TypingIndicator botName={name} />}
          {stoppedShort && (
            <ReplyEndActions
              onContinue={() => chat.send({ type: 'CONTINUE', messageId: stoppedShort._id })}
              onRetry={() => commands.regenerate(stoppedShort._id)}
            />
          )}
          {failed && <ChatProblem chat={chat} />}
        </div>
      </div>
      {shownCitation && (
        <CitationDialog citation={shownCitation.citation} onClose={() => citations.send({ type: 'CLOSE' })} />
      )}
      {!following && (
        <button type="button" className="button small jump-to-latest" onClick={jumpToLatest}>
          <T>Jump to latest</T>
        </button>
      )}
    </div>
  );
}
