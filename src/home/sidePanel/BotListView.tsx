import { useSelector } from '@xstate/react';
import { activeBots } from '../../../machines/bots';
import type { Bot } from '../../api/types';
import { useActors } from '../../app/ActorsContext';

/** Quick switch: every active bot, one tap from its details. */
export function BotListView() {
  const { sidePanel, bots } = useActors();
  const all = useSelector(bots, (snapshot) => snapshot.context.bots) as Bot[];
  return (
    <ul className="bot-switch">
      {activeBots(all).map((bot) => (
        <li key={bot._id}>
          <button
            type="button"
            className="button small"
            onClick={() => sidePanel.send({ type: 'CHANGE_VIEW', view: 'bot', botId: bot._id })}
          >
            {bot.name}
          </button>
        </li>
      ))}
    </ul>
  );
}
