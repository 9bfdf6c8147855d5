import { Link } from 'wouter';
import type { BotRecord } from '../../machines/bots';
import { Bdi } from '../components/Bdi';
import { T } from '../i18n/T';
import { useFormat } from '../i18n/useFormat';
import { useT } from '../i18n/useT';

interface BotCardProps {
  bot: BotRecord;
  currency: string;
  onShowDetails: (bot: BotRecord) => void;
}

/** One bot of the catalogue: what it is, what it costs, and the way to chat with it. */
export function BotCard({ bot, currency, onShowDetails }: BotCardProps) {
  const t = useT();
  const format = useFormat();
  return (
    <li className="bot-card">
      <h4>
        <Bdi text={bot.name} />
      </h4>
      <p className="bot-description" dir="auto">
        {bot.description}
      </p>
      {bot.owner && (
        <p className="bot-owner">
          {t('Made by')} <Bdi text={bot.owner.name} />
        </p>
      )}
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
            {format.money(bot.price, currency)} <T>per reply</T>
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
