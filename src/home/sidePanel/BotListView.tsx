import { useSelector } from '@xstate/react';
import { activeBots } from '../../../machines/bots';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';

/** Quick switch: every active bot, one tap from its details. */
export function BotListView() {
  const { bots } = useActors();
  const { sidePanel } = useWorkspace();
  const all = useSelector(bots, (snapshot) => snapshot.context.bots);
  return (
    <ul className="bot-switch">
      {activeBots(all).map((bot) => (
        <li key={bot._id}>
          <button
            type="button"
            className="button small"
            onClick={() => sidePanel.send({ type: 'SHOW_BOT', botId: bot._id })}
          >
            <Bdi text={bot.name} />
          </button>
        </li>
      ))}
    </ul>
  );
}
