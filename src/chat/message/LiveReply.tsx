import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { streamingReply, type ToolStep } from '../../../machines/messageTree';
import type { topicMachine } from '../../../machines/topic';
import { Markdown } from '../../components/markdown/Markdown';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { type ToolApproval, ToolSteps } from './ToolSteps';

interface LiveReplyProps {
  chat: ActorRefFrom<typeof topicMachine>;
  botName: string;
}

const noSteps: ToolStep[] = [];

/**
 * The reply being written, token by token: the only part of a conversation that renders per token,
 * so a long conversation costs no more per token than a short one. Its text is hidden from screen
 * readers while it grows (the finished message takes its place in the log and is read out once); its
 * tool steps are not: a call that waits for the user's Allow or Deny is announced, and answered here.
 */
export function LiveReply({ chat, botName }: LiveReplyProps) {
  const t = useT();
  const text = useSelector(chat, (snapshot) => snapshot.context.draft);
  const steps = useSelector(chat, (snapshot) => streamingReply(snapshot.context)?.steps ?? noSteps);
  const detached = useSelector(chat, (snapshot) => snapshot.matches({ live: { stream: 'detached' } }));
  const approvalState = useSelector(chat, (snapshot): ToolApproval['state'] | null => {
    if (!snapshot.matches({ live: { tool: 'awaitingApproval' } })) return null;
    if (snapshot.matches({ live: { tool: { awaitingApproval: 'deciding' } } })) return 'deciding';
    if (snapshot.matches({ live: { tool: { awaitingApproval: 'decisionFailed' } } })) return 'failed';
    return 'choosing';
  });
  const decisionError = useSelector(chat, (snapshot) => snapshot.context.decisionError?.message ?? null);
  const approval = useMemo<ToolApproval | null>(
    () =>
      approvalState && {
        state: approvalState,
        error: decisionError,
        onAllow: (callId) => chat.send({ type: 'APPROVE_TOOL', callId }),
        onDeny: (callId) => chat.send({ type: 'DENY_TOOL', callId }),
      },
    [chat, approvalState, decisionError],
  );
  return (
    // Busy while it is written; not while it waits for the user.
    <article className="message bot" aria-busy={approvalState === null}>
      <h2 className="visually-hidden">{botName}</h2>
      {steps.length > 0 && <ToolSteps steps={steps} approval={approval} />}
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
