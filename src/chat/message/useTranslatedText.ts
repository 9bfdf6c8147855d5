import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { useDisplaysEnglish } from '../../i18n/useDisplaysEnglish';

export type TranslationState = 'off' | 'translating' | 'translated' | 'unavailable';

/**
 * Whether messages are offered in the display language: not in English, and only when the server has
 * a translation provider (without one, only the UI's own words could be translated).
 */
export function useMessageTranslation(): boolean {
  const { organizationDetails } = useWorkspace();
  const english = useDisplaysEnglish();
  const provided = useSelector(
    organizationDetails,
    ({ context }) => context.data?.messageTranslation === true,
  );
  return !english && provided;
}

/**
 * A message's text in the display language, through the same translation machine (and IndexedDB
 * cache) as the interface: asked for once, only when wanted and offered.
 */
export function useTranslatedText(text: string, wanted: boolean) {
  const { translation } = useActors();
  const offered = useMessageTranslation();
  // One subscription per message: the translation, null when it was refused, undefined until known.
  const known = useSelector(translation, ({ context }) =>
    Object.hasOwn(context.translations, text)
      ? context.translations[text]
      : context.untranslatable.includes(text)
        ? null
        : undefined,
  );
  const asking = wanted && offered;

  useEffect(() => {
    if (asking) translation.send({ type: 'TRANSLATE', text });
  }, [asking, translation, text]);

  const state: TranslationState = !asking
    ? 'off'
    : typeof known === 'string'
      ? 'translated'
      : known === null
        ? 'unavailable'
        : 'translating';
  return { offered, state, shown: asking && typeof known === 'string' ? known : text };
}
