import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { topicMachine } from '../../machines/topic';
import { useActors } from '../app/ActorsContext';

/** The bot of the chat: its record from the catalogue, and the name to show even before that has loaded. */
export function useChatBot(chat: ActorRefFrom<typeof topicMachine>) {
  const { bots } = useActors();
  const topicBot = useSelector(chat, (snapshot) => snapshot.context.topic?.bot ?? null);
  const botId = useSelector(chat, (snapshot) => snapshot.context.topic?.bot._id ?? snapshot.context.botId);
  const bot = useSelector(
    bots,
    (snapshot) => snapshot.context.bots.find((item) => item._id === botId) ?? null,
  );
  return { bot, name: bot?.name ?? topicBot?.name ?? '' };
}
