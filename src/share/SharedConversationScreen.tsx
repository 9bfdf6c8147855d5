import { useActorRef, useSelector } from '@xstate/react';
import { use, useEffect } from 'react';
import { useSearch } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { Bdi } from '../components/Bdi';
import { FormError } from '../components/FormError';
import { Loading } from '../components/Loading';
import { Markdown } from '../components/markdown/Markdown';
import { PageLayout } from '../components/PageLayout';
import { textDir } from '../i18n/bidi';
import { T } from '../i18n/T';
import { useFormat } from '../i18n/useFormat';
import { useT } from '../i18n/useT';
import '../chat/message/message.css';

/** Keeps search engines off the page while it is shown: a shared link is not for their index. */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

/**
 * `/s/:shareId`: a shared conversation, read-only, rendered with the messages' own sanitized markdown,
 * and "Continue this conversation" (a visitor logs in first, then comes back and continues).
 */
export default function SharedConversationScreen({ shareId }: { shareId: string }) {
  const { sharedConversation, services, session } = useActors();
  // A kept token counts: the server says if it no longer holds when the conversation is continued.
  const loggedIn = useSelector(session, (state) => !state.matches({ auth: 'loggedOut' }));
  // The page's machine comes in its own chunk: the first render suspends under the route's Suspense.
  const page = useActorRef(use(sharedConversation()), { input: { loggedIn }, inspect: services.inspect });
  const t = useT();
  const format = useFormat();
  const resume = new URLSearchParams(useSearch()).get('continue') === '1';
  useNoIndex();
  useEffect(() => {
    page.send({ type: 'LOAD', shareId, resume });
  }, [page, shareId, resume]);
  const snapshot = useSelector(page, (state) => state.context.snapshot);
  const problem = useSelector(page, (state) => state.context.error);
  const loading = useSelector(page, (state) => state.matches('loading') || state.matches('idle'));
  const missing = useSelector(page, (state) => state.matches('missing'));
  const continuing = useSelector(page, (state) => state.matches('continuing'));
  const title = snapshot ? snapshot.title || snapshot.bot.name : missing ? t('Link not found') : '';
  useDocumentTitle(title);

  if (loading)
    return (
      <PageLayout>
        <Loading />
      </PageLayout>
    );
  if (missing || !snapshot)
    return (
      <PageLayout>
        <h1>
          <T>Link not found</T>
        </h1>
        <p className="lead">
          <T>This shared conversation does not exist, was revoked, or needs a login in its organization.</T>
        </p>
      </PageLayout>
    );
  return (
    <PageLayout>
      <div className="shared-conversation">
        <h1 dir={textDir(title)}>{title}</h1>
        <p className="shared-meta">
          <Bdi text={snapshot.bot.name} /> · <T>Shared</T>{' '}
          <time dateTime={snapshot.sharedAt}>{format.dateTime(new Date(snapshot.sharedAt))}</time>
        </p>
        <section className="messages" aria-label={t('Conversation')}>
          {snapshot.messages.map((message, index) => (
            // A snapshot's messages have no ids: their order is their identity, and it never changes.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <article key={index} className={`message ${message.role}`}>
              <h2 className="visually-hidden">{message.role === 'user' ? t('User') : snapshot.bot.name}</h2>
              {message.role === 'user' ? (
                <p className="user-text" dir={textDir(message.text)}>
                  {message.text}
                </p>
              ) : (
                <Markdown text={message.text} streaming={false} t={t} />
              )}
            </article>
          ))}
        </section>
        <FormError message={problem} />
        <div className="actions">
          <button
            type="button"
            className="button primary"
            disabled={continuing}
            onClick={() => page.send({ type: 'CONTINUE' })}
          >
            <T>Continue this conversation</T>
          </button>
        </div>
      </div>
    </PageLayout>
  );
}
