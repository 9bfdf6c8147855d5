import { lazy, type Ref, Suspense } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { Menu } from '../../components/Menu';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import type { TranslationState } from './useTranslatedText';

// Read aloud's code (its machine, the speech effects) loads with the first reply shown.
const ReadAloudButton = lazy(() => import('../voice/ReadAloudButton'));

interface MessageActionsProps {
  id: string;
  role: 'user' | 'bot';
  text: string;
  /** Edit and regenerate wait while a reply is being written. */
  canChange: boolean;
  /** Offered in any display language but English, when the server can translate messages. */
  translation: TranslationState | null;
  onEdit: () => void;
  /** The Edit button, where focus returns when the editor closes. */
  editRef: Ref<HTMLButtonElement>;
  /** A model's id: "Regenerate with…" it; none: the conversation's. */
  onRegenerate: (model?: string) => void;
  /** The bot's models when it offers more than one: "Regenerate with…" offers them. */
  models: { _id: string; name: string }[] | null;
  onToggleTranslation: () => void;
}

/** What can be done with a message: copy its markdown source, edit or ask again, translate in place. */
export function MessageActions(props: MessageActionsProps) {
  const t = useT();
  const { role, text, canChange, translation } = props;
  return (
    <span className="message-actions">
      <CopyButton text={text} t={t} what={t(role === 'user' ? 'Your message' : 'Reply')} />
      {role === 'user' && (
        <button
          ref={props.editRef}
          type="button"
          className="button small ghost"
          onClick={props.onEdit}
          disabled={!canChange}
        >
          <T>Edit</T>
        </button>
      )}
      {role === 'bot' && (
        <button
          type="button"
          className="button small ghost"
          onClick={() => props.onRegenerate()}
          disabled={!canChange}
        >
          <T>Regenerate</T>
        </button>
      )}
      {role === 'bot' && props.models && canChange && (
        <Menu
          label={t('Regenerate with…')}
          shown
          items={props.models.map((model) => ({
            label: model.name,
            onSelect: () => props.onRegenerate(model._id),
          }))}
        />
      )}
      {role === 'bot' && (
        <Suspense fallback={null}>
          <ReadAloudButton messageId={props.id} text={text} />
        </Suspense>
      )}
      {translation && (
        <button
          type="button"
          className="button small ghost"
          aria-pressed={translation !== 'off'}
          onClick={props.onToggleTranslation}
        >
          <T>{translation === 'off' ? 'Translate' : 'Show original'}</T>
        </button>
      )}
    </span>
  );
}
