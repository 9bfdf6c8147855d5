import type { ActorRefFrom } from 'xstate';
import type { topicMachine } from '../../machines/topic';
import { Bdi } from '../components/Bdi';
import { textDir } from '../i18n/bidi';
import { T } from '../i18n/T';
import { examplePrompts } from './examplePrompts';
import { useChatBot } from './useChatBot';

/** The bot's empty chat: what it is, and a few first messages to send with a click. */
export function DraftIntro({ chat }: { chat: ActorRefFrom<typeof topicMachine> }) {
  const { bot } = useChatBot(chat);
  if (!bot) return null;
  return (
    <section className="draft" aria-labelledby="draft-title">
      <h2 id="draft-title">
        <Bdi text={bot.name} />
      </h2>
      <p dir="auto">{bot.description}</p>
      <h3 className="draft-try">
        <T>Try one of these</T>
      </h3>
      <ul className="examples">
        {examplePrompts(bot).map((prompt) => (
          <li key={prompt}>
            <button
              type="button"
              className="button example"
              dir={textDir(prompt)}
              onClick={() => chat.send({ type: 'SEND', text: prompt })}
            >
              {prompt}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
