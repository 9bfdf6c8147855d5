import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useWorkspace } from '../app/useWorkspace';
import { Loading } from '../components/Loading';
import { T } from '../i18n/T';
import { useFileDrop } from './attachments/useFileDrop';
import { ChatBar } from './ChatBar';
import { ChatProblem } from './ChatProblem';
import { Composer, picked } from './Composer';
import { DraftIntro } from './DraftIntro';
import { MessageList } from './MessageList';
import { WebSearchSwitch } from './WebSearchSwitch';

const loadingStates = ['starting', 'checkingBot', 'loading'] as const;

/** The chat screen: `topics/new?bot=ID` shows the bot's empty chat, `topics/:id` resumes a conversation. */
export default function ChatArea({ topicId }: { topicId: string }) {
  const {
    chat: chatMachine,
    attachments: attachmentsMachine,
    citations: citationsMachine,
    conversations,
    inspect,
  } = useWorkspace();
  const search = new URLSearchParams(useSearch());
  const botId = search.get('bot');
  const project = search.get('project');
  const address =
    topicId === 'new' ? { botId, topicId: null, project } : { botId: null, topicId, project: null };
  const chat = useActorRef(chatMachine, { input: address, inspect });
  // The files of the message being written: one set per chat screen.
  const attachments = useActorRef(attachmentsMachine, { inspect, input: {} });
  const citations = useActorRef(citationsMachine, { inspect });

  // Another conversation chosen in the sidebar starts afresh; the one this chat just created goes on.
  useEffect(() => {
    chat.send({ type: 'OPEN', botId: address.botId, topicId: address.topicId, project: address.project });
  }, [chat, address.botId, address.topicId, address.project]);

  // The sidebar highlights the conversation on screen, and its menu and the chat's act on the same one.
  const shownId = useSelector(chat, (snapshot) => snapshot.context.topic?._id ?? null);
  const shownTitle = useSelector(chat, (snapshot) => snapshot.context.topic?.title ?? '');
  useEffect(() => {
    if (!shownId) return;
    conversations.send({ type: 'SHOW', conversation: { _id: shownId, title: shownTitle } });
    return () => conversations.send({ type: 'SHOW', conversation: null });
  }, [conversations, shownId, shownTitle]);

  const view = useSelector(chat, (snapshot) => {
    if (loadingStates.some((state) => snapshot.matches(state))) return 'loading';
    if (snapshot.matches('unavailable') || snapshot.matches('botUnavailable')) return 'problem';
    return snapshot.matches('draft') ? 'draft' : 'conversation';
  });
  const replying = useSelector(
    chat,
    (snapshot) => snapshot.matches('live') || snapshot.matches('creating') || snapshot.matches('stopping'),
  );
  const [translateAll, setTranslateAll] = useState(false);
  // "Search the web" holds for the next message only.
  const [webSearch, setWebSearch] = useState(false);
  const broke = useSelector(chat, (snapshot) => snapshot.matches('insufficientBalance'));
  const returned = useSelector(chat, (snapshot) => snapshot.context.returned);
  const refusal = useSelector(chat, (snapshot) =>
    snapshot.matches('ready') && snapshot.context.returned ? (snapshot.context.error?.message ?? null) : null,
  );
  const composing = view === 'draft' || view === 'conversation';
  const drop = useFileDrop(
    (files) => attachments.send({ type: 'ADD', files: files.map(picked) }),
    composing && !broke,
  );

  return (
    <div className={`chat${drop.over ? ' dropping' : ''}`} {...drop.handlers}>
      {/* A bar a conversation: its model and settings are that conversation's. */}
      <ChatBar
        key={shownId ?? 'new'}
        chat={chat}
        translateAll={translateAll}
        onTranslateAll={setTranslateAll}
      />
      {view === 'loading' && <Loading />}
      {view === 'problem' && <ChatProblem chat={chat} />}
      {view === 'draft' && <DraftIntro chat={chat} />}
      {view === 'conversation' && (
        <MessageList chat={chat} citations={citations} translateAll={translateAll} />
      )}
      {drop.over && (
        <p className="drop-target" aria-hidden="true">
          <T>Drop files to attach them</T>
        </p>
      )}
      {composing && (
        <Composer
          streaming={replying}
          disabled={broke}
          attachments={attachments}
          returned={returned}
          problem={refusal}
          onSend={(text, files) => {
            chat.send({
              type: 'SEND',
              text,
              ...(files.length ? { files } : {}),
              ...(webSearch ? { webSearch } : {}),
            });
            setWebSearch(false);
          }}
          onStop={() => chat.send({ type: 'STOP' })}
          options={<WebSearchSwitch chat={chat} on={webSearch} onChange={setWebSearch} disabled={broke} />}
        />
      )}
    </div>
  );
}
