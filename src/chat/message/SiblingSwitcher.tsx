import type { SiblingPosition } from '../../../machines/messageTree';
import { useT } from '../../i18n/useT';

interface SiblingSwitcherProps {
  position: SiblingPosition;
  disabled: boolean;
  onShow: (messageId: string) => void;
}

/** "‹ 2 / 3 ›": moves between the versions of a message (edits of it, or replies asked for again). */
export function SiblingSwitcher({ position, disabled, onShow }: SiblingSwitcherProps) {
  const t = useT();
  if (position.count < 2) return null;
  const { previous, next } = position;
  return (
    <span className="sibling-switcher">
      <button
        type="button"
        className="button small ghost"
        aria-label={t('Previous version')}
        disabled={disabled || !previous}
        onClick={() => previous && onShow(previous)}
      >
        ‹
      </button>
      <span>
        <span className="visually-hidden">{t('Version')} </span>
        {position.index} / {position.count}
      </span>
      <button
        type="button"
        className="button small ghost"
        aria-label={t('Next version')}
        disabled={disabled || !next}
        onClick={() => next && onShow(next)}
      >
        ›
      </button>
    </span>
  );
}
