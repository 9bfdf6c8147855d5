import { Link } from 'wouter';
import type { Bot } from '../api/types';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { formatMoney } from './formatMoney';

interface BotCardProps {
  bot: Bot;
  currency: string;
  language: string;
  onShowDetails: (bot: Bot) => void;
}

/** One bot of the catalogue: what it is, what it costs, and the way to chat with it. */
export function BotCard({ bot, currency, language, onShowDetails }: BotCardProps) {
  const t = useT();
  return (
    <li className="bot-card">
      <h4>{bot.name}</h4>
      <p className="bot-description">{bot.description}</p>
      <ul className="chips" aria-label={t('Categories')}>
        {bot.categories.map((category) => (
          <li key={category._id} className="chip">
            {t(category.name)}
          </li>
        ))}
      </ul>
      <p className="bot-price">
        {bot.price > 0 ? (
          <>
            {formatMoney(bot.price, currency, language)} <T>per reply</T>
          </>
        ) : (
          <T>Free</T>
        )}
      </p>
      <div className="bot-actions">
        <Link
          href={`/topics/new?bot=${encodeURIComponent(bot._id)}`}
          className="button primary small"
          aria-label={`${t('Chat')} ${bot.name}`}
        >
          {t('Chat')}
        </Link>
        <button
          type="button"
          className="button small"
          onClick={() => onShowDetails(bot)}
          aria-label={`${t('Details')} ${bot.name}`}
        >
          {t('Details')}
        </button>
      </div>
    </li>
  );
}
