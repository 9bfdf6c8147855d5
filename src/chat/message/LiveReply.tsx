import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { topicMachine } from '../../../machines/topic';
import { Markdown } from '../../components/markdown/Markdown';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

interface LiveReplyProps {
  chat: ActorRefFrom<typeof topicMachine>;
  botName: string;
  /** Called as the reply grows, so the list can keep following it. */
  onGrow: () => void;
}

/**
 * The reply being written, token by token: the only part of a conversation that renders per token,
 * so a long conversation costs no more per token than a short one. Hidden from screen readers while
 * it grows; the finished message takes its place in the log and is read out once.
 */
export function LiveReply({ chat, botName, onGrow }: LiveReplyProps) {
  const t = useT();
  const text = useSelector(chat, (snapshot) => snapshot.context.draft);
  const detached = useSelector(chat, (snapshot) => snapshot.matches({ live: { stream: 'detached' } }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the text is the trigger
  useEffect(() => onGrow(), [text, onGrow]);
  return (
    <article className="message bot" aria-busy="true">
      <h2 className="visually-hidden">{botName}</h2>
      {/* Not read out token by token: the conversation's log announces the reply once, when it is complete. */}
      <div aria-hidden="true">
        <Markdown text={text} streaming t={t} />
      </div>
      {detached && (
        <p className="message-meta" role="status">
          <span className="message-note">
            <T>Connection lost. The reply goes on; reconnecting…</T>
          </span>
        </p>
      )}
    </article>
  );
}
