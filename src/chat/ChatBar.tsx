import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { topicMachine } from '../../machines/topic';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useWorkspace } from '../app/useWorkspace';
import { Bdi } from '../components/Bdi';
import { Menu } from '../components/Menu';
import { useBilling } from '../home/useBilling';
import { textDir } from '../i18n/bidi';
import { T } from '../i18n/T';
import { useFormat } from '../i18n/useFormat';
import { useT } from '../i18n/useT';
import { useMessageTranslation } from './message/useTranslatedText';
import { ChatSettingsDialog } from './model/ChatSettingsDialog';
import { ModelPicker } from './model/ModelPicker';
import { useChatBot } from './useChatBot';

interface ChatBarProps {
  chat: ActorRefFrom<typeof topicMachine>;
  /** "Translate all": every message of the conversation shown in the display language. */
  translateAll: boolean;
  onTranslateAll: (on: boolean) => void;
}

/**
 * The chat's own bar: the conversation's title, its bot and price per reply, its model (where the bot
 * offers a choice), and its menu (with its settings where the bot allows them). One bar a conversation:
 * its model and settings are that conversation's.
 */
export function ChatBar({ chat, translateAll, onTranslateAll }: ChatBarProps) {
  const { conversations, share, chatModel, inspect } = useWorkspace();
  const t = useT();
  const format = useFormat();
  const currency = useBilling().billing?.currency ?? 'EUR';
  const { bot, name } = useChatBot(chat);
  const topic = useSelector(chat, (snapshot) => snapshot.context.topic);
  const firstMessage = useSelector(
    chat,
    (snapshot) => snapshot.context.messages.find((message) => message.role === 'user')?.text ?? '',
  );
  // Renamed from a menu: the conversations know the new title first.
  const renamed = useSelector(conversations, (snapshot) =>
    snapshot.context.open && snapshot.context.open._id === topic?._id ? snapshot.context.open.title : '',
  );
  const exportError = useSelector(conversations, (snapshot) => snapshot.context.exportError);
  const exporting = useSelector(conversations, (snapshot) => snapshot.matches({ export: 'exporting' }));
  const translationOffered = useMessageTranslation();
  const title = renamed || topic?.title || firstMessage || t('New chat');
  useDocumentTitle(title);
  const conversation = topic && { _id: topic._id, title };
  const tuning = useActorRef(chatModel, {
    input: { topicId: topic?._id ?? null, model: topic?.model ?? null, parameters: topic?.parameters ?? {} },
    inspect,
  });
  const settingsOpen = useSelector(tuning, (snapshot) => !snapshot.matches({ settings: 'closed' }));
  // The price follows the conversation's model, once its price is known.
  const price = useSelector(
    tuning,
    (snapshot) => snapshot.context.prices.find((model) => model._id === snapshot.context.model)?.price,
  );
  const models = bot?.models ?? [];
  const replyPrice = price ?? bot?.price ?? 0;

  return (
    <div className="chat-bar">
      <div className="chat-bar-text">
        <h1 dir={textDir(title)}>{title}</h1>
        {name && (
          <p className="chat-bar-bot">
            <Bdi text={name} />
            {bot &&
              ` · ${replyPrice > 0 ? `${format.money(replyPrice, currency)} ${t('per reply')}` : t('Free')}`}
          </p>
        )}
      </div>
      {conversation && models.length > 1 && <ModelPicker tuning={tuning} models={models} />}
      {conversation && translationOffered && (
        <button
          type="button"
          className="button small"
          aria-pressed={translateAll}
          onClick={() => onTranslateAll(!translateAll)}
        >
          <T>Translate all</T>
        </button>
      )}
      {conversation && (
        <Menu
          label={t('Conversation actions')}
          items={[
            {
              label: t('Rename'),
              onSelect: () => conversations.send({ type: 'START_RENAME', conversation }),
            },
            { label: t('Share'), onSelect: () => share.send({ type: 'OPEN', topic: conversation }) },
            {
              label: t('Export as Markdown'),
              onSelect: () => conversations.send({ type: 'EXPORT', conversation }),
            },
            ...(bot?.userParameters
              ? [{ label: t('Chat settings'), onSelect: () => tuning.send({ type: 'OPEN_SETTINGS' }) }]
              : []),
            { label: t('Delete'), onSelect: () => conversations.send({ type: 'ASK_DELETE', conversation }) },
          ]}
        />
      )}
      {settingsOpen && <ChatSettingsDialog tuning={tuning} />}
      {exporting && (
        <p className="chat-bar-bot chat-bar-error" role="status">
          <T>Exporting…</T>
        </p>
      )}
      {exportError && (
        <p className="field-error chat-bar-error" role="alert">
          {t(exportError)}
        </p>
      )}
    </div>
  );
}
