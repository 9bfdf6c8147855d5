import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/** Searches the user's conversations on the server as they type (once they pause). */
export function ConversationSearch() {
  const { conversations } = useWorkspace();
  const t = useT();
  const id = useId();
  const query = useSelector(conversations, (snapshot) => snapshot.context.query);
  return (
    <search className="sidebar-search">
      <label htmlFor={id} className="visually-hidden">
        <T>Search conversations</T>
      </label>
      <input
        id={id}
        type="search"
        value={query}
        placeholder={t('Search conversations')}
        autoComplete="off"
        onChange={(event) => conversations.send({ type: 'SEARCH', query: event.target.value })}
      />
    </search>
  );
}
