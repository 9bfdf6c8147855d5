import { Link } from 'wouter';
import type { ConversationSummary } from '../../../machines/conversations';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { Menu } from '../../components/Menu';
import { textDir } from '../../i18n/bidi';
import { useT } from '../../i18n/useT';
import { Snippet } from './Snippet';

/** A conversation of the sidebar: its title, bot and last words (or the passage a search found), and its menu. */
export function ConversationRow({
  conversation,
  open,
}: {
  conversation: ConversationSummary;
  open: boolean;
}) {
  const { conversations, share } = useWorkspace();
  const t = useT();
  const title = conversation.title || conversation.bot.name;
  const ref = { _id: conversation._id, title };
  return (
    <li className={open ? 'conversation open' : 'conversation'}>
      <Link
        href={`/topics/${conversation._id}`}
        className="conversation-link"
        aria-current={open ? 'page' : undefined}
        onClick={() => conversations.send({ type: 'CLOSE_DRAWER' })}
      >
        <span className="conversation-title" dir={textDir(title)}>
          {title}
        </span>
        <span className="conversation-bot">
          <Bdi text={conversation.bot.name} />
          {conversation.streaming && (
            <span className="activity" role="img" aria-label={t('Replying…')}>
              <span />
              <span />
              <span />
            </span>
          )}
        </span>
        {conversation.snippet ? (
          <Snippet snippet={conversation.snippet} />
        ) : (
          conversation.preview && (
            <span className="conversation-preview" dir={textDir(conversation.preview)}>
              {conversation.preview}
            </span>
          )
        )}
      </Link>
      <Menu
        label={`${t('Conversation actions')}: ${title}`}
        items={[
          {
            label: t('Rename'),
            onSelect: () => conversations.send({ type: 'START_RENAME', conversation: ref }),
          },
          {
            label: t('Share'),
            onSelect: () => share.send({ type: 'OPEN', topic: ref }),
          },
          {
            label: t('Move to project…'),
            onSelect: () => conversations.send({ type: 'START_MOVE', conversation: ref }),
          },
          {
            label: conversation.pinned ? t('Unpin') : t('Pin'),
            onSelect: () =>
              conversations.send({
                type: 'CHANGE',
                conversation: ref,
                change: { pinned: !conversation.pinned },
              }),
          },
          {
            label: conversation.archived ? t('Unarchive') : t('Archive'),
            onSelect: () =>
              conversations.send({
                type: 'CHANGE',
                conversation: ref,
                change: { archived: !conversation.archived },
              }),
          },
          {
            label: t('Delete'),
            onSelect: () => conversations.send({ type: 'ASK_DELETE', conversation: ref }),
          },
        ]}
      />
    </li>
  );
}
