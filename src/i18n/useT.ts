import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef } from 'react';
import { useActors } from '../app/ActorsContext';
import { useDisplaysEnglish } from './useDisplaysEnglish';

/**
 * The one path every UI string takes: `t('Log in')` answers the translation known now (the source
 * text until one arrives) and asks the translation machine for the ones it lacks, after render.
 */
export function useT(): (text: string) => string {
  const { translation } = useActors();
  // English (en-US too) is shown as written: nothing is looked up or asked for.
  const english = useDisplaysEnglish();
  const known = useSelector(translation, (snapshot) => snapshot.context.translations);
  const missing = useRef(new Set<string>());

  useEffect(() => {
    for (const text of missing.current) translation.send({ type: 'TRANSLATE', text });
    missing.current.clear();
  });

  return useCallback(
    (text: string) => {
      if (english || !text) return text;
      const translated = known[text];
      if (translated === undefined) missing.current.add(text);
      return translated ?? text;
    },
    [english, known],
  );
}
