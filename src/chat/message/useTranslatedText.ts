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
  const known = useSelector(translation, (snapshot) => snapshot.context.translations[text]);
  const refused = useSelector(translation, (snapshot) => snapshot.context.untranslatable.includes(text));
  const asking = wanted && !english;

  useEffect(() => {
    if (asking) translation.send({ type: 'TRANSLATE', text });
  }, [asking, translation, text]);

  const state: TranslationState = !asking
    ? 'off'
    : known !== undefined
      ? 'translated'
      : refused
        ? 'unavailable'
        : 'translating';
  return { english, state, shown: state === 'translated' ? (known as string) : text };
}
