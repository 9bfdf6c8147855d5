import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { fromPromise } from 'xstate';
import { type TopicRecord, topicMachine } from '../../machines/topic';
import { useActors } from '../app/ActorsContext';
import { AppHeader } from '../components/AppHeader';
import { Loading } from '../components/Loading';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { ChatProblem } from './ChatProblem';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { createStreamReply } from './streamReply';

/** The chat screen: `topics/new?bot=ID` starts a topic, `topics/:id` resumes one. */
export default function ChatArea({ topicId }: { topicId: string }) {
  const { api, billing, topics } = useActors();
  const t = useT();
  const botId = new URLSearchParams(useSearch()).get('bot');
  const chat = useActorRef(
    topicMachine.provide({
      actors: {
        createTopic: fromPromise(({ input }) => api.createTopic(input.botId) as Promise<TopicRecord>),
        loadTopic: fromPromise(({ input }) => api.topic(input.topicId) as Promise<TopicRecord>),
        streamReply: createStreamReply(api),
      },
    }),
    { input: topicId === 'new' ? { botId, topicId: null } : { botId: null, topicId } },
  );

  useEffect(() => {
    const navigation = chat.on('navigate', ({ to, replace }) => navigate(to, { replace }));
    const charges = chat.on('charged', () => {
      billing.send({ type: 'RELOAD' });
      topics.send({ type: 'RELOAD' });
    });
    return () => {
      navigation.unsubscribe();
      charges.unsubscribe();
    };
  }, [chat, billing, topics]);

  const state = useSelector(chat, (snapshot) => snapshot);
  const title = state.context.topic?.title || state.context.topic?.bot.name || t('Chat');
  const streaming = state.matches('replying');

  return (
    <>
      <AppHeader />
      <div className="chat">
        <div className="chat-header">
          <Link href="/list" className="button small">
            <T>Back</T>
          </Link>
          <h1>{title}</h1>
        </div>
        {(state.matches('starting') || state.matches('creating') || state.matches('loading')) && <Loading />}
        {state.matches('unavailable') && <ChatProblem chat={chat} />}
        {state.context.topic && (
          <>
            <MessageList
              botName={state.context.topic.bot.name}
              messages={state.context.messages}
              streamingText={streaming ? state.context.draft : null}
            />
            {(state.matches('replyFailed') || state.matches('insufficientBalance')) && (
              <ChatProblem chat={chat} />
            )}
            <Composer
              streaming={streaming}
              disabled={state.matches('insufficientBalance')}
              onSend={(text) => chat.send({ type: 'SEND', text })}
              onStop={() => chat.send({ type: 'STOP' })}
            />
          </>
        )}
      </div>
    </>
  );
}
