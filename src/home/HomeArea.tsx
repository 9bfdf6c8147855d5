import { useSelector } from '@xstate/react';
import { useActors } from '../app/ActorsContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { Bdi } from '../components/Bdi';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { BotCatalogue } from './BotCatalogue';

/** The home area (`/list`): the bot catalogue, where every new chat starts. */
export default function HomeArea() {
  const { session } = useActors();
  const t = useT();
  useDocumentTitle(t('Your bots'));
  const displayName = useSelector(session, (snapshot) => snapshot.context.user?.displayName);
  return (
    <div className="home">
      <h1>
        {displayName ? (
          <>
            {t('Hello')}, <Bdi text={displayName} />
          </>
        ) : (
          t('Your bots')
        )}
      </h1>
      <p className="lead">
        <T>Pick a bot and start a conversation.</T>
      </p>
      <BotCatalogue />
    </div>
  );
}
