import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useActors } from '../../app/ActorsContext';
import { useDisplaysEnglish } from '../../i18n/useDisplaysEnglish';

export type TranslationState = 'off' | 'translating' | 'translated' | 'unavailable';

/**
 * A message's text in the display language, through the same translation machine (and IndexedDB
 * cache) as the interface: asked for once, only when wanted, never in English.
 */
export function useTranslatedText(text: string, wanted: boolean) {
  const { translation } = useActors();
  const english = useDisplaysEnglish();
  // One subscription per message: the translation, null when it was refused, undefined until known.
  const known = useSelector(translation, ({ context }) =>
    Object.hasOwn(context.translations, text)
      ? context.translations[text]
      : context.untranslatable.includes(text)
        ? null
        : undefined,
  );
  const asking = wanted && !english;

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
  return { english, state, shown: asking && typeof known === 'string' ? known : text };
}
