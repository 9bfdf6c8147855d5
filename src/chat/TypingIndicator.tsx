import { useT } from '../i18n/useT';

/** The bot is writing: shown from the moment a message is sent until the first words of the reply. */
export function TypingIndicator({ botName }: { botName: string }) {
  const t = useT();
  return (
    <div className="message bot typing">
      <span className="visually-hidden">{botName ? `${botName}: ${t('Typing…')}` : t('Typing…')}</span>
      <span className="typing-dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
    </div>
  );
}
