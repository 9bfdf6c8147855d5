import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { topicMachine } from '../../machines/topic';
import { useWorkspace } from '../app/useWorkspace';
import { T } from '../i18n/T';
import { useChatBot } from './useChatBot';

/**
 * "Search the web" for the next message: offered when the organization has a search engine and the
 * chat's bot runs on a model without `web_search` of its own (a bot with it always searches).
 */
export function WebSearchSwitch({
  chat,
  on,
  onChange,
  disabled,
}: {
  chat: ActorRefFrom<typeof topicMachine>;
  on: boolean;
  onChange: (on: boolean) => void;
  disabled: boolean;
}) {
  const { organizationDetails } = useWorkspace();
  const available = useSelector(organizationDetails, ({ context }) => context.data?.webSearch === true);
  const { bot } = useChatBot(chat);
  if (!available || bot?.platform.name !== 'openai' || bot.webSearch) return null;
  return (
    <label className="web-search-switch">
      <input
        type="checkbox"
        role="switch"
        checked={on}
        aria-checked={on}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <T>Search the web</T>
    </label>
  );
}
