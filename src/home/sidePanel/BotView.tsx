import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { platformLabel } from '../platformLabel';

/** The selected bot's details and the way to chat with it. */
export function BotView() {
  const { bots } = useActors();
  const { sidePanel } = useWorkspace();
  const t = useT();
  const botId = useSelector(sidePanel, (snapshot) => snapshot.context.botId);
  const bot = useSelector(bots, (snapshot) => snapshot.context.bots.find((item) => item._id === botId));
  if (!bot) {
    return (
      <p className="empty">
        <T>Choose a bot to see its details.</T>
      </p>
    );
  }
  return (
    <div className="panel-view">
      <h3>
        <Bdi text={bot.name} />
      </h3>
      <p dir="auto">{bot.description}</p>
      <p>
        <T>Platform</T>: {t(platformLabel(bot.platform.name))}
      </p>
      <p>
        <T>Categories</T>: {bot.categories.map((category) => t(category.name)).join(', ')}
      </p>
      <Link
        href={`/topics/new?bot=${encodeURIComponent(bot._id)}`}
        className="button primary"
        aria-label={`${t('Chat')} ${bot.name}`}
      >
        {t('Chat')}
      </Link>
    </div>
  );
}
